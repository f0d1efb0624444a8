#pragma once
// The lora harness's byte format (fuzz/README.md, "Byte formats"). Every byte string decodes
// to a LoRA Case that properties::lora::materialise accepts, within a work budget that keeps
// one check bounded (kLoraWorkBudget multiply-adds per forward, 16 patches):
//
//   offset  bytes  field
//   0       1      property: lora_fuzz_properties()[b % size]
//   1..3    3      T, N, K: with the realistic-sizes flag (byte 11), b < 192: 1 + b % 32 (the
//                  small cases, 3 in 4 bytes); else kLoraRealisticExtents[(b - 192) % size]
//                  (powers of two 64..8192 and their neighbours, the reference shapes'
//                  extents). Without it, 1 + (b % 192) % 32: every extent small
//   4       1      r: with the flag, b < 224: 1 + b % 16, else kLoraRealisticRanks[(b - 224) %
//                  size]; without it, 1 + (b % 224) % 16
//                  Then, while one forward's multiply-adds T K (N + r) + T N r exceed
//                  kLoraWorkBudget or the operands' elements T K + N K + r K + N r + T N
//                  exceed kLoraElementBudget, K, then N, then T, then r is lowered to the
//                  largest value that fits (at least 1).
//   5       1      probe_row = b % T
//   6..10   5      layouts of x, W, A, B, dy (fuzz_values.hpp)
//   11      1      bits 0-1 alpha (r, 2r, 16, 1); bit 2 b_zero; bits 3-5 v: v - 3 output-
//                  straddling patches on B for v >= 4 (properties/lora/straddle.hpp: each a search
//                  through the reference, the dearest part of decoding), none below; bits 6-7 both set:
//                  the realistic-sizes flag (one input in 4: the others, small throughout, are
//                  the harness's default sizes and run at its full speed, fuzz/README.md "Speed")
//   12..19  8      seed, little-endian
//   20...   8 each patches (fuzz_values.hpp) on x, W, A, B, dy, at most 16
//
// Straddling patches are computed after the explicit ones, as the RapidCheck generator does.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

inline constexpr std::int64_t kLoraMaxExtent = 32;  // T, N, K of the small cases
inline constexpr std::int64_t kLoraMaxRank = 16;    // r of the small cases
inline constexpr std::int64_t kLoraRealisticExtents[] = {63,   64,   65,   127,  128,  129,  255,  256,  257,  511,
                                                         512,  513,  1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
                                                         4097, 8191, 8192, 8193, 33,   70,   384,  5120};
inline constexpr std::int64_t kLoraRealisticRanks[] = {31, 32, 33, 63, 64, 65, 17, 128};
// Multiply-adds of one forward, T K (N + r) + T N r, at most: 2^18, about 64^3 (two thirds of
// T = N = K = 64, r = 16), so that a realistic extent costs about what a case of 64s does; the
// other extents give way (T 8193 comes with N K ~ 32).
inline constexpr std::int64_t kLoraWorkBudget = std::int64_t{1} << 18;
// Elements of x, W, A, B and dy, T K + N K + r K + N r + T N, at most: 2^15, about twice a case
// of 64s (each is a Philox normal to draw: materialising, not multiplying, is
// what a case with one long extent costs). T 8193 comes with N + K <= 3.
inline constexpr std::int64_t kLoraElementBudget = std::int64_t{1} << 15;
inline constexpr std::size_t kMaxPatches = 16;

// The lora properties a harness checks: those that take a subject and need no LibTorch, in
// the family's order (oracle_agreement checks parity's own oracles and is left to ctest).
const std::vector<std::string>& lora_fuzz_properties();

// Never throws for any bytes.
FuzzInput decode_lora(std::span<const std::uint8_t> bytes);

// The bytes of a LoRA input that lies within the caps (each extent small or realistic, as
// above, and the work within the budget): layouts with pad and offset <= 7,
// alpha one of r, 2r, 16, 1, b_zero 0 or 1, at most 16 patches (written raw), and the flag
// for `straddles` (0-4) output-straddling patches. decode_lora(encode_lora(in, s)) describes
// the same problem as `in` with alpha made explicit and s straddling patches appended.
// Throws InputError for an input outside the caps.
std::vector<std::uint8_t> encode_lora(const FuzzInput& in, int straddles = 0);

}  // namespace parity::fuzz
