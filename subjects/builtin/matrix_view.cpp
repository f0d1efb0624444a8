#include <parity/subjects/builtin/matrix_view.hpp>

#include <string>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>

namespace parity::subjects::builtin {

MatrixView MatrixView::of(const Tensor& t) {
  if (t.shape().size() != 2) throw InputError("MatrixView: tensor of rank " + std::to_string(t.shape().size()));
  const std::size_t size = dtype_size(t.dtype());
  if (t.dtype() != DType::f32 && t.dtype() != DType::bf16)
    throw InputError("MatrixView: dtype " + std::string(dtype_name(t.dtype())) + " is neither f32 nor bf16");
  const auto* bytes = reinterpret_cast<const std::byte*>(t.storage_bytes().data());
  return {bytes + t.offset() * static_cast<std::int64_t>(size),
          t.dtype(),
          t.dim(0),
          t.dim(1),
          t.strides()[0],
          t.strides()[1]};
}

MatrixView MatrixView::of_floats(const float* data, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return {data, DType::f32, rows, cols, ld, 1};
}

MatrixView MatrixView::row_range(std::int64_t begin, std::int64_t end) const {
  MatrixView v = *this;
  const std::int64_t skip = begin * s_row;
  v.base = dtype == DType::bf16 ? static_cast<const void*>(static_cast<const std::uint16_t*>(base) + skip)
                                : static_cast<const void*>(static_cast<const float*>(base) + skip);
  v.rows = end - begin;
  return v;
}

float MatrixView::at(std::int64_t i, std::int64_t j) const {
  const std::int64_t k = i * s_row + j * s_col;
  return dtype == DType::bf16 ? bf16_to_float(static_cast<const std::uint16_t*>(base)[k])
                              : static_cast<const float*>(base)[k];
}

std::vector<float> to_floats(const MatrixView& v) {
  std::vector<float> out(static_cast<std::size_t>(v.rows * v.cols));
  to_floats(v, out.data());
  return out;
}

void to_floats(const MatrixView& v, float* out) {
  const auto copy = [&](const auto* base, auto conv) {
    if (v.s_col == 1) {  // rows contiguous: a loop the compiler vectorises
      for (std::int64_t i = 0; i < v.rows; ++i) {
        const auto* row = base + i * v.s_row;
        float* to = out + i * v.cols;
        for (std::int64_t j = 0; j < v.cols; ++j) to[j] = conv(row[j]);
      }
      return;
    }
    for (std::int64_t i = 0; i < v.rows; ++i)
      for (std::int64_t j = 0; j < v.cols; ++j) out[i * v.cols + j] = conv(base[i * v.s_row + j * v.s_col]);
  };
  if (v.dtype == DType::bf16)
    copy(static_cast<const std::uint16_t*>(v.base), [](std::uint16_t b) { return bf16_to_float(b); });
  else copy(static_cast<const float*>(v.base), [](float f) { return f; });
}

}  // namespace parity::subjects::builtin
