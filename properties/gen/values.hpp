#pragma once
// RapidCheck generators of the values cases are made of: extents biased to edge sizes,
// layouts, and float32 bit patterns (docs/design.md, "Style" 10: bit patterns, special values, and values
// straddling bf16 rounding boundaries, never RapidCheck's own float generator).
#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include <parity/core/layout.hpp>

namespace parity::gen {

// One of `values`, uniformly at every RapidCheck size, shrinking towards the first
// (RapidCheck's gen::element and gen::elementOf do not shrink at all, and its inRange narrows
// with the size). List the simplest value first.
template <class T>
rc::Gen<T> shrinking_element(std::vector<T> values) {
  const auto n = values.size();
  return rc::gen::map(rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, n)),
                      [values = std::move(values)](std::size_t i) { return values[i]; });
}

// An extent in [1, max]: 1, primes, 2^k - 1, 2^k, 2^k + 1, the kernels' tile sizes and the
// given reference extents (those <= max), or any value in range. Shrinks towards 1.
rc::Gen<std::int64_t> extent(std::int64_t max, std::vector<std::int64_t> reference = {});

// The extents where real kernels change plan, up to `max`: 2^k - 1, 2^k and 2^k + 1 for
// 32 <= 2^k <= 8192, the `reference` extents and `max` itself, each in [1, max], ascending.
std::vector<std::int64_t> threshold_extents(std::int64_t max, std::vector<std::int64_t> reference = {});

// One extent drawn both ways: `small` from extent(small_max, reference) and `large` from
// the threshold_extents(max, reference) above small_max (all of them when none lies above), and
// which of them the case uses. A family's generator
// may demote a large draw to its small one (or to a smaller threshold) to fit its work budget.
struct SizedExtent {
  std::int64_t small = 1, large = 1;
  bool is_large = false;
  std::int64_t value() const { return is_large ? large : small; }
};

// Large one time in `1 + small_weight` (small_weight >= 1), shrinking towards small, each part
// towards its simplest value. small_max is min'ed with max.
rc::Gen<SizedExtent> sized_extent(std::int64_t max, std::int64_t small_max, std::vector<std::int64_t> reference = {},
                                  int small_weight = 5);

// A layout: contiguous, transposed, padded leading dimension, storage offset, or a mix.
// Contiguous about a third of the time. Shrinks towards contiguous.
rc::Gen<Layout> layout();

// float32 bits that straddle a bf16 rounding boundary: (hi << 16) | (0x8000 + d), d in
// [-4, 4], hi a finite bf16 of moderate magnitude. Shrinks towards the exact midpoint.
rc::Gen<std::uint32_t> bf16_straddling_bits();

// float32 special values: +-0, +-1, bf16 max, min normal, denorm_min, +-Inf, NaN.
rc::Gen<std::uint32_t> special_bits();

// Straddling values (3 in 4) or special values (1 in 4).
rc::Gen<std::uint32_t> patch_bits();

}  // namespace parity::gen
