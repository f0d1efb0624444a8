#pragma once
// What the tests that write their own plain float32 LoRA backward share (this folder's
// lora_backward_scale_placement_test, families/lora/tests/lora_adapter_properties_test): an
// operand element as a float, h = x A^T, gradients of zeros of the problem's shapes, and dB with
// the scale on dy. Test subjects only.
#include <cstdint>
#include <optional>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_backward::testing {

// What such a subject is written in: `using namespace parity::ops::lora_backward::testing;`.
using parity::DType;
using parity::Tensor;
using subjects::LoraGradients;
using subjects::LoraInputs;
using subjects::LoraSubject;
using subjects::LoraSubjectInfo;

// Element i (logical, row-major) of `t` as a float.
inline float at(const Tensor& t, std::int64_t i) { return static_cast<float>(t.value_at(i)); }

// h = x A^T in float32, each element's k ascending: [T, r] row-major.
inline std::vector<float> low_rank(const subjects::LoraInputs& in) {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), R = in.A.dim(0);
  std::vector<float> h(static_cast<std::size_t>(T * R), 0.0f);
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t j = 0; j < R; ++j)
      for (std::int64_t k = 0; k < K; ++k) h[t * R + j] = h[t * R + j] + at(in.x, t * K + k) * at(in.A, j * K + k);
  return h;
}

// dx [T, K] bf16, dA [r, K] and dB [N, r] float32, every element +0; no dW.
inline subjects::LoraGradients zero_gradients(const subjects::LoraInputs& in) {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), R = in.A.dim(0);
  return {Tensor::zeros(DType::bf16, {T, K}), Tensor::zeros(DType::f32, {R, K}), Tensor::zeros(DType::f32, {N, R}),
          std::nullopt};
}

// g.dB[n, j] = sum_t (s dy[t, n]) h[t, j] in float32, t ascending: the scale on dy.
inline void set_dB_scaled_dy(subjects::LoraGradients& g, const subjects::LoraInputs& in, const Tensor& dy,
                             const std::vector<float>& h) {
  const std::int64_t T = in.x.dim(0), N = in.W.dim(0), R = in.A.dim(0);
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t j = 0; j < R; ++j) {
      float acc = 0;
      for (std::int64_t t = 0; t < T; ++t) acc = acc + (in.scale * at(dy, t * N + n)) * h[t * R + j];
      g.dB.set_value(n * R + j, static_cast<double>(acc));
    }
}

}  // namespace parity::ops::lora_backward::testing
