#pragma once
// Kernel-configuration feedback for libFuzzer (fuzz/README.md, "Feedback"). Code coverage
// cannot tell a case that ran the split-K path of a kernel from one that ran the plain path
// when both execute the same host lines, nor a row length just past the 256-lane reduction
// tree from one well inside it. Each harness therefore names the configuration a case took as
// a small integer, and observe_config() bumps that entry of a table of 8-bit counters that
// libFuzzer reads as extra features: an input that reaches a configuration not seen before is
// new coverage, and is kept in the corpus.
#include <cstddef>
#include <cstdint>

namespace parity::fuzz {

inline constexpr std::size_t kConfigCounters = 256;

// Registers the table with libFuzzer through __sanitizer_cov_8bit_counters_init (and a
// matching __sanitizer_cov_pcs_init table, which libFuzzer requires to have the same size).
// Call once, from LLVMFuzzerInitialize. Without libFuzzer (the plain driver) it registers
// nothing and the counters are only counted.
void register_config_counters();

// Bumps counter `config % kConfigCounters` (saturating at 255).
void observe_config(std::uint32_t config);

// How many distinct configurations have been observed in this process.
std::size_t configs_seen();

// A small stable id for a name (FNV-1a), for configurations named by text (a kernel's plan).
std::uint32_t name_id(const char* name);

}  // namespace parity::fuzz
