#pragma once
// The transition harness's byte format (fuzz/README.md, "Byte formats"). Every byte string
// decodes to a transition Case that properties::transition::materialise accepts, within caps
// that keep one check fast (B <= 8, n = tokens x channels <= 4096, 16 patches):
//
//   offset  bytes  field
//   0       1      property: transition_fuzz_properties()[b % size]
//   1       1      B = 1 + b % 8
//   2       1      channels = 1 + b % 96
//   3..4    2      tokens = 1 + u16 % (4096 / channels)
//   5       1      probe_row = b % B
//   6       1      bits 0-1 step (sde, cps, sde without normaliser, sde); bit 2 bf16 inputs;
//                  bits 3-4 sigma_max (0.995, 0.98, 0.9997, 0.5); bits 5-6 noise_level
//                  (0.7, 0.5, 1.0, 0.1)
//   7..9    3      layouts of x, v, eps (fuzz_values.hpp)
//   10..17  8      seed, little-endian
//   18...   3 B    per row: sigma u16 (0xFFFF: 1, else (u16 + 1) / 65536), then sigma_prev =
//                  float(sigma * b / 256) for the next byte b (0 <= sigma_prev < sigma)
//   ...     8 each patches (fuzz_values.hpp) on x, v, eps, at most 16
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.hpp"

namespace parity::fuzz {

inline constexpr std::int64_t kTransitionMaxRows = 8;
inline constexpr std::int64_t kTransitionMaxRowLength = 4096;

// The transition properties a harness checks: those that take a subject and need no LibTorch
// (batch_invariant, scoring_reproduces_sampling, accuracy).
const std::vector<std::string>& transition_fuzz_properties();

// Never throws for any bytes.
FuzzInput decode_transition(std::span<const std::uint8_t> bytes);

// The bytes of a transition input within the caps whose flags, sigmas and layouts have an
// encoding (sigma and sigma_prev are rounded to the nearest encodable values); for an input
// decoded from bytes, decode_transition(encode_transition(in)) == in. Throws InputError for
// an input outside the caps.
std::vector<std::uint8_t> encode_transition(const FuzzInput& in);

}  // namespace parity::fuzz
