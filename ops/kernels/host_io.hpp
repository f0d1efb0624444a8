#pragma once
// Host-side operand access shared by parity's op host twins: an input's logical values as
// float32 (exact: f32, bf16 and f16 inputs are floats), and an output element stored as the CUDA
// kernels store it (device_operand.cuh): bf16 and f16 rounded once to nearest even, f32 the
// value itself.
#include <cstdint>
#include <iterator>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/tensor.hpp>

namespace parity::ops::kernels {

inline std::vector<float> host_floats(const Tensor& t) {
  const std::vector<double> v = t.values();
  return {v.begin(), v.end()};
}

// The n floats from `v` in reverse order: a host twin's other plan (BuiltinSubjects::other_plan)
// reduces a row reversed, which keeps the lane order's accuracy (arithmetic.hpp) and changes its bits.
inline std::vector<float> reversed(const float* v, std::int64_t n) {
  return {std::reverse_iterator(v + n), std::reverse_iterator(v)};
}

inline void store(Tensor& out, std::int64_t i, float v) {
  if (out.dtype() == DType::bf16) out.set_bits(i, bf16_from_float_rne(v));
  else out.set_value(i, v);
}

}  // namespace parity::ops::kernels
