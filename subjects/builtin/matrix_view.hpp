#pragma once
// The host twins' read-only view of a 2-D operand in its own layout and dtype, and its float32
// copy: how the twins read Tensors without per-element index arithmetic.
#include <cstdint>
#include <vector>

#include <parity/core/dtype.hpp>
#include <parity/core/tensor.hpp>

namespace parity::subjects::builtin {

// A read-only 2-D view of float32 or bf16 values: element (i, j), i < rows, j < cols, at
// base[i * s_row + j * s_col] (element units of dtype). Conversions to float32 are exact.
struct MatrixView {
  const void* base = nullptr;
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0, s_row = 0, s_col = 0;

  // The logical 2-D tensor t (f32 or bf16; throws InputError otherwise), in its own layout.
  static MatrixView of(const Tensor& t);
  // A row-major float32 matrix [rows][cols] with row stride ld.
  static MatrixView of_floats(const float* data, std::int64_t rows, std::int64_t cols, std::int64_t ld);
  MatrixView transposed() const { return {base, dtype, cols, rows, s_col, s_row}; }
  // Rows [begin, end) of this view.
  MatrixView row_range(std::int64_t begin, std::int64_t end) const;
  float at(std::int64_t i, std::int64_t j) const;
};

// The view's values as a row-major float32 [rows][cols] matrix (into out, rows x cols floats).
std::vector<float> to_floats(const MatrixView& v);
void to_floats(const MatrixView& v, float* out);

}  // namespace parity::subjects::builtin
