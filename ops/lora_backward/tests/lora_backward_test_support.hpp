#pragma once
// What the tests that write their own plain float32 LoRA backward share (this folder's
// lora_backward_scale_placement_test, families/lora/tests/lora_adapter_properties_test): a subject
// of lora_backward written as a backward over the call's operands, parity's host twin's backward,
// an operand element as a float, h = x A^T, gradients of zeros of the problem's shapes, and dB
// with the scale on dy. Test subjects only.
#include <cstdint>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>

namespace parity::ops::lora_backward::testing {

// What such a subject is written in: `using namespace parity::ops::lora_backward::testing;`.
using lora_forward::LoraGradients;
using parity::DType;
using parity::Tensor;
using LoraInputs = lora_forward::LoraOperands;

// A subject of lora_backward whose dx, dA and dB are backward()'s on the call's operands.
class BackwardOf : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) final {
    LoraGradients g = backward(lora_forward::operands_of(call), call.input("dy"));
    return {{"dx", std::move(g.dx)}, {"dA", std::move(g.dA)}, {"dB", std::move(g.dB)}};
  }
  virtual LoraGradients backward(const LoraInputs& in, const Tensor& dy) = 0;
};

// parity's host twin's backward.
inline LoraGradients host_backward(const LoraInputs& in, const Tensor& dy) {
  return lora_forward::LoraHost<lora_forward::StandardArithmetic>().backward(in, dy);
}

// Element i (logical, row-major) of `t` as a float.
inline float at(const Tensor& t, std::int64_t i) { return static_cast<float>(t.value_at(i)); }

// h = x A^T in float32, each element's k ascending: [T, r] row-major.
inline std::vector<float> low_rank(const LoraInputs& in) {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), R = in.A.dim(0);
  std::vector<float> h(static_cast<std::size_t>(T * R), 0.0f);
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t j = 0; j < R; ++j)
      for (std::int64_t k = 0; k < K; ++k) h[t * R + j] = h[t * R + j] + at(in.x, t * K + k) * at(in.A, j * K + k);
  return h;
}

// dx [T, K] bf16, dA [r, K] and dB [N, r] float32, every element +0.
inline LoraGradients zero_gradients(const LoraInputs& in) {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), R = in.A.dim(0);
  return {Tensor::zeros(DType::bf16, {T, K}), Tensor::zeros(DType::f32, {R, K}), Tensor::zeros(DType::f32, {N, R})};
}

// g.dB[n, j] = sum_t (s dy[t, n]) h[t, j] in float32, t ascending: the scale on dy.
inline void set_dB_scaled_dy(LoraGradients& g, const LoraInputs& in, const Tensor& dy, const std::vector<float>& h) {
  const std::int64_t T = in.x.dim(0), N = in.W.dim(0), R = in.A.dim(0);
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t j = 0; j < R; ++j) {
      float acc = 0;
      for (std::int64_t t = 0; t < T; ++t) acc = acc + (in.scale * at(dy, t * N + n)) * h[t * R + j];
      g.dB.set_value(n * R + j, static_cast<double>(acc));
    }
}

}  // namespace parity::ops::lora_backward::testing
