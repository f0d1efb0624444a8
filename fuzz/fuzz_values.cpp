#include <parity/fuzz/fuzz_values.hpp>

#include <parity/core/bf16.hpp>

namespace parity::fuzz {

Layout decode_layout(std::uint8_t b) {
  Layout l;
  if (b == 0) return l;
  l.transposed = (b & 1u) != 0;
  l.ld_pad = (b >> 1) & 7;
  l.offset = (b >> 4) & 7;
  return l;
}

const std::vector<std::uint32_t>& special_value_bits() {
  static const std::vector<std::uint32_t> all = {0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F7F0000u,
                                                 0x7F7FFFFFu, 0x00800000u, 0x007FFFFFu, 0x00000001u, 0x7F800000u,
                                                 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00000u};
  return all;
}

std::uint32_t decode_float_bits(ByteReader& in) {
  const std::uint8_t kind = in.u8();
  const std::uint8_t p0 = in.u8(), p1 = in.u8(), p2 = in.u8(), p3 = in.u8();
  switch (kind % 4) {
    case 0:
      return static_cast<std::uint32_t>(p0) | static_cast<std::uint32_t>(p1) << 8 |
             static_cast<std::uint32_t>(p2) << 16 | static_cast<std::uint32_t>(p3) << 24;
    case 1:
      return special_value_bits()[p0 % special_value_bits().size()];
    case 2: {
      const std::uint32_t exponent = 112u + (p0 >> 1) % 24u;
      const auto hi = static_cast<std::uint16_t>((p0 & 1u) << 15 | exponent << 7 | (p1 & 0x7Fu));
      return bf16_straddle_bits(hi, static_cast<std::int32_t>(p2 % 9) - 4);
    }
    default: {
      const std::uint32_t hi = static_cast<std::uint32_t>(p0) | static_cast<std::uint32_t>(p1) << 8;
      return (hi << 16) + static_cast<std::uint32_t>(static_cast<std::int32_t>(p2 % 3) - 1);
    }
  }
}

void encode_float_bits(ByteWriter& out, std::uint32_t bits) {
  out.u8(0);
  out.u32(bits);
}

}  // namespace parity::fuzz
