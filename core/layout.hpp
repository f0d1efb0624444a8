#pragma once
// How a logical 2-D tensor [rows, cols] is placed in memory: row-major or transposed
// (column-major), with a padded leading dimension and a storage offset. Padding and the
// offset prefix are filled with a NaN pattern, so a subject that reads outside the logical
// tensor produces NaNs that the properties see.
#include <cstdint>
#include <string>

#include "core/tensor.hpp"

namespace parity {

struct Layout {
  bool transposed = false;    // column-major storage
  std::int64_t ld_pad = 0;    // extra elements per leading-dimension line (>= 0)
  std::int64_t offset = 0;    // storage elements before element (0, 0) (>= 0)

  bool is_contiguous() const { return !transposed && ld_pad == 0 && offset == 0; }
  // "contiguous", or e.g. "transposed+pad3+off5".
  std::string name() const;

  // Places the logical values of a 2-D tensor under this layout. Throws InputError for a
  // tensor that is not 2-D or negative pad/offset.
  Tensor place(const Tensor& logical) const;

  friend bool operator==(const Layout&, const Layout&) = default;
};

}  // namespace parity
