#pragma once
// Decoding by family name, for `parity fuzz-repro` and the seed generator: the one place that
// knows which families have a byte format (decode_lora.hpp, decode_transition.hpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

// The families with a harness byte format, e.g. {"lora", "transition"}.
const std::vector<std::string>& fuzz_families();

// The harness of `family` ("<family>_fuzzer"). Throws InputError naming the known families.
std::string harness_name(const std::string& family);

// Decodes `bytes` exactly as the family's harness does. Throws InputError for a family
// without a byte format; never for the bytes.
FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes);

// The properties the family's harness may select.
const std::vector<std::string>& fuzz_properties(const std::string& family);

}  // namespace parity::fuzz
