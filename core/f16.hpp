#pragma once
// Bit-exact IEEE 754 binary16 (f16: 1 sign, 5 exponent, 10 fraction bits; subnormals, Inf,
// NaN). Conversions into f16 round to nearest, ties to even, directly from the source's bits,
// so a double is rounded once (never through float32); overflow rounds to Inf; a NaN becomes
// the canonical NaN. Every function is PARITY_HD, like bf16.hpp's: a kernel and its host twin
// round through the same code.
#include <cstdint>
#include <cstring>

#include <parity/core/hd.hpp>

namespace parity {

// The canonical f16 NaN that parity's own code emits (c10's and CUDA's quiet NaN).
inline constexpr std::uint16_t kF16CanonicalNaN = 0x7E00;

PARITY_HD bool f16_is_nan(std::uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0; }

// The f16 of sign `sign` (0 or 0x8000) nearest the finite magnitude m * 2^e (m < 2^63, e any),
// ties to even: shifts the significand to f16's precision at that exponent (subnormal below
// 2^-14) keeping a round and a sticky bit.
PARITY_HD std::uint16_t f16_round_magnitude(std::uint16_t sign, std::uint64_t m, int e) {
  if (m == 0) return sign;
#ifdef __CUDA_ARCH__
  int top = 63;  // the position of m's leading bit
  while (!((m >> top) & 1u)) --top;
#else
  const int top = 63 - __builtin_clzll(m);  // the same position, in one instruction on the host
#endif
  const int exponent = top + e;  // value in [2^exponent, 2^(exponent + 1))
  if (exponent > 15) return static_cast<std::uint16_t>(sign | 0x7C00u);
  // The value in units of f16's ulp at this exponent: 2^(exponent - 10), or 2^-24 when subnormal.
  const int unit = (exponent < -14 ? -14 : exponent) - 10;
  const int shift = unit - e;  // m >> shift is the significand in those units
  std::uint64_t q;
  bool round = false, sticky = false;
  if (shift <= 0) {
    q = m << -shift;  // exact (shift >= -10 as m's width is at least 1)
  } else if (shift > 63) {
    q = 0;
    sticky = true;  // far below half the smallest subnormal
  } else {
    q = m >> shift;
    round = (m >> (shift - 1)) & 1u;
    sticky = (m & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
  }
  if (round && (sticky || (q & 1u))) ++q;
  // q counts ulps from zero: below 2^10 subnormal; a carry into 2^11 moves up an exponent.
  const int biased = unit + 10 + 15;  // exponent field of the normal range at this unit (>= 1)
  // (a carry to 2^11 lands on the next exponent's first value, an overflow on Inf).
  std::uint32_t bits = q < 0x400u ? static_cast<std::uint32_t>(q)
                                  : (static_cast<std::uint32_t>(biased) << 10) + static_cast<std::uint32_t>(q - 0x400u);
  if (bits > 0x7C00u) bits = 0x7C00u;
  return static_cast<std::uint16_t>(sign | bits);
}

// float32 -> f16, round to nearest even.
PARITY_HD std::uint16_t f16_from_float_rne(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  const auto sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t exp = (u >> 23) & 0xFFu, frac = u & 0x7FFFFFu;
  if (exp == 0xFFu) return frac ? kF16CanonicalNaN : static_cast<std::uint16_t>(sign | 0x7C00u);
  if (exp == 0) return f16_round_magnitude(sign, frac, -149);
  return f16_round_magnitude(sign, frac | 0x800000u, static_cast<int>(exp) - 150);
}

// double -> f16, round to nearest even (once: no float32 in between).
PARITY_HD std::uint16_t f16_from_double_rne(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  const auto sign = static_cast<std::uint16_t>((u >> 48) & 0x8000u);
  const auto exp = static_cast<std::uint32_t>((u >> 52) & 0x7FFu);
  const std::uint64_t frac = u & 0xFFFFFFFFFFFFFull;
  if (exp == 0x7FFu) return frac ? kF16CanonicalNaN : static_cast<std::uint16_t>(sign | 0x7C00u);
  if (exp == 0) return f16_round_magnitude(sign, frac, -1074);
  return f16_round_magnitude(sign, frac | 0x10000000000000ull, static_cast<int>(exp) - 1075);
}

// f16 -> float32 is exact (a NaN keeps its sign and payload, quieted).
PARITY_HD float f16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu, frac = h & 0x3FFu;
  std::uint32_t u;
  if (exp == 0x1Fu) {
    u = sign | 0x7F800000u | (frac << 13) | (frac ? 0x400000u : 0u);
  } else if (exp == 0) {
    // subnormal: frac * 2^-24, exact in float32
    const float v = static_cast<float>(frac) * 5.9604644775390625e-8f;
    std::memcpy(&u, &v, sizeof u);
    u |= sign;
  } else {
    u = sign | ((exp + 112u) << 23) | (frac << 13);
  }
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace parity
