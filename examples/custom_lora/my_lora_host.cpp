// The host path of my LoRA kernel: the element functions of my_lora_math.cuh in plain loops.
#include <vector>

#include "my_lora.hpp"
#include "my_lora_math.cuh"

namespace my_lora {
namespace {

using parity::DType;
using parity::Tensor;
using parity::subjects::LoraGradients;
using parity::subjects::LoraInputs;

Bf16View bf16_view(const Tensor& t) {
  return {t.storage<std::uint16_t>() + t.offset(), t.strides()[0], t.strides()[1]};
}
F32View f32_view(const Tensor& t) { return {t.storage<float>() + t.offset(), t.strides()[0], t.strides()[1]}; }

class HostLora final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override {
    parity::subjects::validate_lora_inputs(in);
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
    const std::vector<float> hs = low_rank(in);
    Tensor out = Tensor::zeros(DType::bf16, {T, N});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t n = 0; n < N; ++n)
        out.storage<std::uint16_t>()[t * N + n] =
            y(bf16_view(in.x), bf16_view(in.W), hs.data(), f32_view(in.B), in.scale, t, n, K, r);
    return out;
  }

  LoraGradients backward(const LoraInputs& in, const Tensor& dy_t) override {
    parity::subjects::validate_lora_inputs(in);
    parity::subjects::validate_lora_dy(in, dy_t);
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
    const Bf16View x_v = bf16_view(in.x), W_v = bf16_view(in.W), dy_v = bf16_view(dy_t);
    const F32View A_v = f32_view(in.A), B_v = f32_view(in.B);
    const std::vector<float> hs = low_rank(in);
    std::vector<float> dhs(static_cast<std::size_t>(T * r));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < r; ++j) dhs[t * r + j] = dh(dy_v, B_v, in.scale, t, j, N);
    LoraGradients g{Tensor::zeros(DType::bf16, {T, K}), Tensor::zeros(DType::f32, {r, K}),
                    Tensor::zeros(DType::f32, {N, r}), std::nullopt};
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k)
        g.dx.storage<std::uint16_t>()[t * K + k] = dx(dy_v, W_v, dhs.data(), A_v, t, k, N, r);
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t k = 0; k < K; ++k) g.dA.storage<float>()[j * K + k] = dA(dhs.data(), x_v, j, k, T, r);
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t j = 0; j < r; ++j) g.dB.storage<float>()[n * r + j] = dB(dy_v, hs.data(), in.scale, n, j, T, r);
    return g;
  }

 private:
  // h = x A^T, [T, r] contiguous.
  static std::vector<float> low_rank(const LoraInputs& in) {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), r = in.A.dim(0);
    std::vector<float> hs(static_cast<std::size_t>(T * r));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < r; ++j) hs[t * r + j] = h(bf16_view(in.x), f32_view(in.A), t, j, K);
    return hs;
  }
};

}  // namespace

std::unique_ptr<LoraSubject> make_host() { return std::make_unique<HostLora>(); }

}  // namespace my_lora
