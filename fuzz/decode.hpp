#pragma once
// Decoding by family name, for `parity fuzz-repro` and the seed generator: the one place that
// knows which families have a byte format: the op families (decode_op.hpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

// The families with a harness byte format: every op family (ops/, whose one harness is op_fuzzer:
// decode_op.hpp; lora_forward, lora_backward, transition_step and transition_score among them).
const std::vector<std::string>& fuzz_families();

// The harness of `family`: "op_fuzzer". Throws InputError naming the known families, and for
// "transition" (whose retired transition_fuzzer had a byte format of its own) naming what replaces it.
std::string harness_name(const std::string& family);

// Decodes `bytes` exactly as the family's harness does when it checks `subject` (an op's format
// depends on the subject's capabilities). Throws InputError for a family without a byte format
// (as harness_name) or an op without that subject; never for the bytes.
FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes,
                            const std::string& subject = "parity-host");

}  // namespace parity::fuzz
