#pragma once
// The transition harness's byte format (fuzz/README.md, "Byte formats"). Every byte string
// decodes to a transition Case that properties::transition::materialise accepts, within caps
// that keep one check bounded (n = tokens x channels <= 4096, B n <= kTransitionWorkBudget,
// 16 patches):
//
//   offset  bytes  field
//   0       1      property: transition_fuzz_properties()[b % size]
//   1       1      B: b < 248: 1 + b % 8; else kTransitionRealisticBatches[b - 248] (the batch
//                  sizes where real kernels change their plan: 9 to 64)
//   2       1      channels = 1 + b % 96
//   3..4    2      tokens: u16 < 0xC000 (3 in 4): 1 + u16 % min(16, 4096 / channels), a short row;
//                  else 1 + (u16 - 0xC000) % (4096 / channels), any length; then lowered to the
//                  largest value with B x tokens x channels <= kTransitionWorkBudget (at least 1)
//   5       1      probe_row = b % B
//   6       1      bits 0-1 step (sde, cps, sde without normaliser, sde); bit 2 bf16 inputs;
//                  bits 3-4 sigma_max (0.995, 0.98, 0.9997, 0.5); bits 5-6 noise_level
//                  (0.7, 0.5, 1.0, 0.1)
//   7..9    3      layouts of x, v, eps (fuzz_values.hpp)
//   10..17  8      seed, little-endian
//   18...   3 min(B, 8)  per row: sigma u16 (0xFFFF: 1, else (u16 + 1) / 65536), then
//                  sigma_prev = float(sigma * b / 256) for the next byte b (0 <= sigma_prev <
//                  sigma); row b >= 8 takes row b % 8's sigmas
//   ...     8 each patches (fuzz_values.hpp) on x, v, eps, at most 16
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

inline constexpr std::int64_t kTransitionMaxRows = 8;  // rows with their own sigma bytes
inline constexpr std::int64_t kTransitionRealisticBatches[] = {9, 12, 16, 17, 32, 33, 63, 64};
inline constexpr std::int64_t kTransitionMaxRowLength = 4096;
// Tokens of a short row, the default (3 inputs in 4): the cases the harness runs most, fast
// (a row of up to 16 x 96 elements still crosses the lane-reduction plans' 256 and 512); the
// long rows, up to kTransitionMaxRowLength elements, are one input in 4.
inline constexpr std::int64_t kTransitionSmallRowTokens = 16;
// Latent elements B x n of one case, at most: 2^15, the largest small case (B 8 x 4096), so that
// a batch of 64 comes with rows of up to 512.
inline constexpr std::int64_t kTransitionWorkBudget = std::int64_t{1} << 15;

// The transition properties a harness checks: scoring_reproduces_sampling, the family's own that
// every kernel must hold bitwise (batch invariance and accuracy are its ops', which op_fuzzer
// fuzzes). The property byte stays in the format.
const std::vector<std::string>& transition_fuzz_properties();

// Never throws for any bytes.
FuzzInput decode_transition(std::span<const std::uint8_t> bytes);

// The bytes of a transition input within the caps (rows past 8 repeating row b % 8's sigmas)
// whose flags, sigmas and layouts have an encoding (sigma and sigma_prev are rounded to the nearest encodable values);
// for an input decoded from bytes, decode_transition(encode_transition(in)) == in. Throws InputError for an input
// outside the caps.
std::vector<std::uint8_t> encode_transition(const FuzzInput& in);

}  // namespace parity::fuzz
