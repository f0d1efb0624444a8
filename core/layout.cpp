#include <parity/core/layout.hpp>

#include <cstring>

#include <parity/core/error.hpp>

namespace parity {
namespace {

// A quiet NaN in every dtype, with a payload that is easy to spot in a dump.
std::uint64_t padding_bits(DType t) {
  switch (t) {
    case DType::f32: return 0x7FC0BADDu;
    case DType::bf16: return 0x7FDDu;
    case DType::f16: return 0x7EDDu;
    case DType::f64: return 0x7FF8BADD0000BADDull;
  }
  return 0;
}

}  // namespace

std::string Layout::name() const {
  if (is_contiguous()) return "contiguous";
  std::string n = transposed ? "transposed" : "rowmajor";
  if (ld_pad) n += "+pad" + std::to_string(ld_pad);
  if (offset) n += "+off" + std::to_string(offset);
  return n;
}

double Layout::storage_elements(std::int64_t rows, std::int64_t cols) const {
  const double ld = static_cast<double>(transposed ? rows : cols) + static_cast<double>(ld_pad);
  return static_cast<double>(offset) + static_cast<double>(transposed ? cols : rows) * ld;
}

Tensor Layout::place(const Tensor& logical) const {
  if (logical.shape().size() != 2) throw InputError("layouts place 2-D tensors only");
  if (ld_pad < 0 || ld_pad > kMaxPadOrOffset) throw InputError("layout ld_pad is outside [0, 2^20]");
  if (offset < 0 || offset > kMaxPadOrOffset) throw InputError("layout offset is outside [0, 2^20]");
  const std::int64_t rows = logical.dim(0), cols = logical.dim(1);
  const std::int64_t ld = (transposed ? rows : cols) + ld_pad;
  const std::int64_t lines = transposed ? cols : rows;
  Tensor placed = Tensor::strided(logical.dtype(), {rows, cols},
                                  transposed ? std::vector<std::int64_t>{1, ld}
                                             : std::vector<std::int64_t>{ld, 1},
                                  offset, offset + lines * ld);
  const std::uint64_t pad = padding_bits(logical.dtype());
  const std::size_t width = dtype_size(logical.dtype());
  auto bytes = placed.storage_bytes();
  for (std::size_t at = 0; at < bytes.size(); at += width) std::memcpy(&bytes[at], &pad, width);
  // Element (r, c) of the row-major source goes to offset + r ld + c, or offset + c ld + r
  // transposed.
  const Tensor src = logical.contiguous();
  const std::byte* from = src.storage_bytes().data();
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t at = offset + (transposed ? c * ld + r : r * ld + c);
      std::memcpy(&bytes[static_cast<std::size_t>(at) * width], from + static_cast<std::size_t>(r * cols + c) * width, width);
    }
  return placed;
}

}  // namespace parity
