#pragma once
// Host-side operand access shared by parity's op host twins: an input's logical values as
// float32 (exact: f32, bf16 and f16 inputs are floats), and an output element stored as the CUDA
// kernels store it (device_operand.cuh): bf16 and f16 rounded once to nearest even, f32 the
// value itself.
#include <cstdint>
#include <iterator>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/tensor.hpp>

namespace parity::ops::kernels {

// Bit for bit the float32 of Tensor::values() (through double, so a NaN comes back quieted), in
// IEEE default mode: no flush of subnormals (DAZ), no default NaN, neither of which parity sets.
inline std::vector<float> host_floats(const Tensor& t) {
  if (!t.is_contiguous() || t.dtype() == DType::f64) {
    const std::vector<double> v = t.values();
    return {v.begin(), v.end()};
  }
  const auto quieted = [](float f) {  // as float -> double -> float: a NaN with its quiet bit set
    const std::uint32_t b = float_bits(f);
    return (b & 0x7FFFFFFFu) > 0x7F800000u ? bits_float(b | 0x00400000u) : f;
  };
  std::vector<float> out(static_cast<std::size_t>(t.numel()));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = quieted(t.dtype() == DType::f32    ? t.storage<float>()[i]
                     : t.dtype() == DType::bf16 ? bf16_to_float(t.storage<std::uint16_t>()[i])
                                                : f16_to_float(t.storage<std::uint16_t>()[i]));
  return out;
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
