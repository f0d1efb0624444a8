#pragma once
// Bit-exact bfloat16 (docs/math.md, "bfloat16"). Every function here is PARITY_HD: the CUDA kernels
// and their host twins round through the same code.
#include <cstdint>
#include <cstring>

#include <parity/core/hd.hpp>

namespace parity {

PARITY_HD std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

PARITY_HD float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The canonical NaN that parity's own code emits (c10's scalar payload). Other paths emit
// other payloads (docs/math.md, "bfloat16"); comparisons treat every NaN as equal to every NaN.
inline constexpr std::uint16_t kBf16CanonicalNaN = 0x7FC0;

PARITY_HD bool bf16_is_nan(std::uint16_t b) { return (b & 0x7F80u) == 0x7F80u && (b & 0x007Fu) != 0; }

// float32 -> bf16, round to nearest even; NaN -> canonical NaN; overflow rounds to Inf.
PARITY_HD std::uint16_t bf16_from_float_rne(float f) {
  const std::uint32_t u = float_bits(f);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) return kBf16CanonicalNaN;
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// float32 -> bf16 by truncation (drops the low half). Not a rounding parity's subjects use:
// it is the arithmetic of a mismatch probe.
PARITY_HD std::uint16_t bf16_from_float_truncate(float f) {
  const std::uint32_t u = float_bits(f);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) return kBf16CanonicalNaN;
  return static_cast<std::uint16_t>(u >> 16);
}

// bf16 -> float32 is exact.
PARITY_HD float bf16_to_float(std::uint16_t b) { return bits_float(static_cast<std::uint32_t>(b) << 16); }

// Rounds a float32 to the nearest bf16 value and back (the value a bf16 cast keeps).
PARITY_HD float round_through_bf16(float f) { return bf16_to_float(bf16_from_float_rne(f)); }

// True iff the float32 with bits u is finite and lies exactly halfway between two bf16 values.
PARITY_HD bool is_bf16_midpoint(std::uint32_t u) {
  return (u & 0x7F800000u) != 0x7F800000u && (u & 0xFFFFu) == 0x8000u;
}

// A float32 that straddles the rounding boundary above the bf16 value `hi`:
// bits (hi << 16) | (0x8000 + d), d in [-0x8000, 0x7FFF]. d < 0 rounds to hi, d > 0 to the
// next bf16 away from zero, d == 0 by the tie rule. `hi` must have a finite exponent field.
PARITY_HD std::uint32_t bf16_straddle_bits(std::uint16_t hi, std::int32_t d) {
  return (static_cast<std::uint32_t>(hi) << 16) | static_cast<std::uint32_t>(0x8000 + d);
}

}  // namespace parity
