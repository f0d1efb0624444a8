#pragma once
// Inputs for the DiT rows' tests (model_rows_test.cpp, model_rows_cuda_twin_test.cpp): the
// float32 unit roundoff, gamma_n, and normal tensors.
#include <cstdint>
#include <vector>

#include <parity/core/random_fill.hpp>
#include <parity/core/tensor.hpp>

namespace parity::subjects::rlkernels::model::test {

using std::int64_t;

inline constexpr double kUnit = 0x1p-24;  // float32 unit roundoff

// gamma_n = n u / (1 - n u), u = 2^-24.
inline double gamma(int64_t n) { return n * kUnit / (1.0 - n * kUnit); }

// A contiguous tensor of `dtype` with entries sd * N(0, 1) from Philox (seed, stream).
inline Tensor normal(DType dtype, std::vector<int64_t> shape, std::uint64_t seed,
                     std::uint32_t stream, double sd) {
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_value(i, sd * philox_normal(seed, stream, i));
  return t;
}

}  // namespace parity::subjects::rlkernels::model::test
