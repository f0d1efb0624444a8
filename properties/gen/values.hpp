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
