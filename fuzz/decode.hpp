#pragma once
// Decoding by family name, for `parity fuzz-repro` and the seed generator: the one place that
// knows which families have a byte format (decode_transition.hpp, decode_op.hpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

// The families with a harness byte format: "transition" and every op family (ops/, whose one
// harness is op_fuzzer: decode_op.hpp; lora_forward and lora_backward among them).
const std::vector<std::string>& fuzz_families();

// The harness of `family` ("<family>_fuzzer"; "op_fuzzer" for an op). Throws InputError naming
// the known families.
std::string harness_name(const std::string& family);

// Decodes `bytes` exactly as the family's harness does when it checks `subject` (an op's format
// depends on the subject's capabilities; transition's does not). Throws InputError for
// a family without a byte format or an op without that subject; never for the bytes.
FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes,
                            const std::string& subject = "parity-host");

// The properties the family's harness may select (on `subject`, for an op).
std::vector<std::string> fuzz_properties(const std::string& family, const std::string& subject = "parity-host");

}  // namespace parity::fuzz
