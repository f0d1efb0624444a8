#include <parity/properties/gen/values.hpp>

#include <algorithm>

#include <parity/core/bf16.hpp>

namespace parity::gen {

rc::Gen<std::int64_t> extent(std::int64_t max, std::vector<std::int64_t> reference) {
  std::vector<std::int64_t> edges = {1, 2, 3, 5, 7, 8, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
  edges.insert(edges.end(), reference.begin(), reference.end());
  std::erase_if(edges, [max](std::int64_t e) { return e > max; });
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, shrinking_element(edges)}, {1, rc::gen::inRange<std::int64_t>(1, max + 1)}});
}

rc::Gen<Layout> layout() {
  return rc::gen::weightedOneOf<Layout>(
      {{1, rc::gen::just(Layout{})},
       {2, rc::gen::build<Layout>(rc::gen::set(&Layout::transposed, rc::gen::arbitrary<bool>()),
                                  rc::gen::set(&Layout::ld_pad, rc::gen::inRange<std::int64_t>(0, 9)),
                                  rc::gen::set(&Layout::offset, rc::gen::inRange<std::int64_t>(0, 9)))}});
}

rc::Gen<std::uint32_t> bf16_straddling_bits() {
  return rc::gen::apply(
      [](bool negative, std::uint32_t exponent, std::uint32_t mantissa, std::int32_t d) {
        const auto hi = static_cast<std::uint16_t>((negative ? 0x8000u : 0u) | (exponent << 7) | mantissa);
        return bf16_straddle_bits(hi, d);
      },
      rc::gen::arbitrary<bool>(), rc::gen::inRange<std::uint32_t>(112, 136), rc::gen::inRange<std::uint32_t>(0, 128),
      rc::gen::inRange<std::int32_t>(-4, 5));
}

rc::Gen<std::uint32_t> special_bits() {
  return shrinking_element<std::uint32_t>({0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F7F0000u, 0x00800000u,
                                           0x00000001u, 0x7F800000u, 0xFF800000u, 0x7FC00000u});
}

rc::Gen<std::uint32_t> patch_bits() {
  return rc::gen::weightedOneOf<std::uint32_t>({{3, bf16_straddling_bits()}, {1, special_bits()}});
}

}  // namespace parity::gen
