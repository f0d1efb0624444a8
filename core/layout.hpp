#pragma once
// How a logical 2-D tensor [rows, cols] is placed in memory: row-major or transposed
// (column-major), with a padded leading dimension and a storage offset. Padding and the
// offset prefix are filled with a NaN pattern, so a subject that reads outside the logical
// tensor produces NaNs that the properties see.
#include <cstdint>
#include <string>

#include <parity/core/tensor.hpp>

namespace parity {

struct Layout {
  // ld_pad and offset are at most this (2^20): enough for any real padding, and it keeps
  // storage sizes within 64-bit arithmetic.
  static constexpr std::int64_t kMaxPadOrOffset = std::int64_t{1} << 20;

  bool transposed = false;  // column-major storage
  std::int64_t ld_pad = 0;  // extra elements per leading-dimension line, in [0, kMaxPadOrOffset]
  std::int64_t offset = 0;  // storage elements before element (0, 0), in [0, kMaxPadOrOffset]

  bool is_contiguous() const { return !transposed && ld_pad == 0 && offset == 0; }
  // "contiguous", or e.g. "transposed+pad3+off5".
  std::string name() const;

  // The storage elements place() allocates for a [rows, cols] tensor: offset + lines x
  // (line length + ld_pad), lines being rows (row-major) or cols (transposed). As a double, so
  // a limit can be checked before anything is allocated or overflows.
  double storage_elements(std::int64_t rows, std::int64_t cols) const;

  // Places the logical values of a 2-D tensor under this layout. Throws InputError for a
  // tensor that is not 2-D or a pad/offset outside [0, kMaxPadOrOffset].
  Tensor place(const Tensor& logical) const;

  friend bool operator==(const Layout&, const Layout&) = default;
};

}  // namespace parity
