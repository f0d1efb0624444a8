#pragma once
// The value encodings of op_fuzzer's byte format (fuzz/README.md, "Byte formats"): layouts in
// one byte and float32 element values as bit patterns in five bytes.
// Float values are decoded from bit patterns, never from a linear range (docs/design.md, "Style" 10): raw
// bits, special values, bf16 rounding midpoints with their neighbours, and bf16 values with
// their float32 neighbours.
#include <cstdint>
#include <vector>

#include <parity/core/layout.hpp>
#include <parity/fuzz/byte_reader.hpp>

namespace parity::fuzz {

// One byte: 0 is contiguous; otherwise bit 0 transposed, bits 1-3 ld_pad (0-7), bits 4-6
// offset (0-7); bit 7 is ignored.
Layout decode_layout(std::uint8_t b);

// Five bytes: a kind, then four payload bytes p0..p3.
//   kind % 4 == 0  raw float32 bits, p0..p3 little-endian
//   kind % 4 == 1  special value special_value_bits()[p0 % size]
//   kind % 4 == 2  a bf16 rounding midpoint of moderate magnitude and its neighbours:
//                  bf16_straddle_bits(hi, p2 % 9 - 4), hi = sign p0 bit 0, exponent
//                  112 + (p0 >> 1) % 24, mantissa p1 & 0x7F
//   kind % 4 == 3  any bf16 value hi = p0 | p1 << 8 and its float32 neighbours:
//                  (hi << 16) + (p2 % 3 - 1), wrapping
std::uint32_t decode_float_bits(ByteReader& in);
// Writes `bits` as a raw pattern (kind 0): decode_float_bits reads it back exactly.
void encode_float_bits(ByteWriter& out, std::uint32_t bits);

// +0, -0, +1, -1, bf16 max, float32 max, min normal, max subnormal, denorm_min, +Inf, -Inf,
// quiet NaN, a signalling NaN, a negative NaN.
const std::vector<std::uint32_t>& special_value_bits();

}  // namespace parity::fuzz
