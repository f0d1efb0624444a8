// The host path of my LoRA kernel: the element functions of my_lora_math.cuh in plain loops.
#include <vector>

#include "my_lora.hpp"
#include "my_lora_math.cuh"

namespace my_lora {
namespace {

using parity::DType;
using parity::Tensor;
using parity::ops::OpCall;
using parity::ops::OpOutputs;

Bf16View bf16_view(const Tensor& t) {
  return {t.storage<std::uint16_t>() + t.offset(), t.strides()[0], t.strides()[1]};
}
F32View f32_view(const Tensor& t) { return {t.storage<float>() + t.offset(), t.strides()[0], t.strides()[1]}; }

// The call's operands as views, with their extents.
struct Operands {
  Bf16View x, W;
  F32View A, B;
  float s;
  std::int64_t T, K, N, r;
  explicit Operands(const OpCall& call)
      : x(bf16_view(call.input("x"))),
        W(bf16_view(call.input("W"))),
        A(f32_view(call.input("A"))),
        B(f32_view(call.input("B"))),
        s(static_cast<float>(call.param("scale"))),
        T(call.extent("T")),
        K(call.extent("K")),
        N(call.extent("N")),
        r(call.extent("r")) {}

  // h = x A^T, [T, r] contiguous.
  std::vector<float> low_rank() const {
    std::vector<float> hs(static_cast<std::size_t>(T * r));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < r; ++j) hs[t * r + j] = h(x, A, t, j, K);
    return hs;
  }
};

class HostForward final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Operands o(call);
    const std::vector<float> hs = o.low_rank();
    Tensor y_out = Tensor::zeros(DType::bf16, {o.T, o.N});
    for (std::int64_t t = 0; t < o.T; ++t)
      for (std::int64_t n = 0; n < o.N; ++n)
        y_out.storage<std::uint16_t>()[t * o.N + n] = y(o.x, o.W, hs.data(), o.B, o.s, t, n, o.K, o.r);
    return {{"y", std::move(y_out)}};
  }
};

class HostBackward final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Operands o(call);
    const Bf16View dy = bf16_view(call.input("dy"));
    const std::int64_t T = o.T, K = o.K, N = o.N, r = o.r;
    const std::vector<float> hs = o.low_rank();
    std::vector<float> dhs(static_cast<std::size_t>(T * r));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < r; ++j) dhs[t * r + j] = dh(dy, o.B, o.s, t, j, N);
    Tensor dx_out = Tensor::zeros(DType::bf16, {T, K}), dA_out = Tensor::zeros(DType::f32, {r, K}),
           dB_out = Tensor::zeros(DType::f32, {N, r});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k)
        dx_out.storage<std::uint16_t>()[t * K + k] = dx(dy, o.W, dhs.data(), o.A, t, k, N, r);
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t k = 0; k < K; ++k) dA_out.storage<float>()[j * K + k] = dA(dhs.data(), o.x, j, k, T, r);
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t j = 0; j < r; ++j) dB_out.storage<float>()[n * r + j] = dB(dy, hs.data(), o.s, n, j, T, r);
    return {{"dx", std::move(dx_out)}, {"dA", std::move(dA_out)}, {"dB", std::move(dB_out)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_host_forward() { return std::make_unique<HostForward>(); }
std::unique_ptr<OpSubject> make_host_backward() { return std::make_unique<HostBackward>(); }

}  // namespace my_lora
