#pragma once
// Template bodies of LoraHostTwin (included by lora_host.hpp only). Loops run over the
// output index innermost so the compiler can vectorise them; each output's own reduction
// still runs in the ascending order lora_arith.cuh documents.
#include <algorithm>

namespace parity::subjects::rlkernels {

template <class Arith>
std::vector<float> LoraHostTwin<Arith>::low_rank_activations(const LoraPacked& p) {
  std::vector<float> h(static_cast<std::size_t>(p.T * p.r), 0.0f);
  for (std::int64_t t = 0; t < p.T; ++t)
    for (std::int64_t j = 0; j < p.r; ++j) {
      float acc = 0.0f;
      for (std::int64_t k = 0; k < p.K; ++k) acc = Arith::mac(acc, p.x[t * p.K + k], p.A[j * p.K + k]);
      h[t * p.r + j] = acc;
    }
  return h;
}

template <class Arith>
Tensor LoraHostTwin<Arith>::forward(const LoraInputs& in) {
  validate_lora_inputs(in);
  const LoraPacked p = LoraPacked::from(in);
  const std::vector<float> h = low_rank_activations(p);
  const float s = Arith::effective_scale(in.scale);
  last_split_ = Arith::split_base_reduction(p.T, p.K);
  const std::int64_t half = p.K / 2;
  Tensor y = Tensor::zeros(DType::bf16, {p.T, p.N});
  auto* out = y.storage<std::uint16_t>();
  std::vector<float> base(p.N), second(p.N), low(p.N);
  for (std::int64_t t = 0; t < p.T; ++t) {
    std::fill(base.begin(), base.end(), 0.0f);
    std::fill(second.begin(), second.end(), 0.0f);
    std::fill(low.begin(), low.end(), 0.0f);
    const float* xt = &p.x[t * p.K];
    for (std::int64_t k = 0; k < p.K; ++k) {
      float* acc = (last_split_ && k >= half) ? second.data() : base.data();
      const float xk = xt[k];
      const float* w = &p.Wt[k * p.N];
      for (std::int64_t n = 0; n < p.N; ++n) acc[n] = Arith::mac(acc[n], xk, w[n]);
    }
    if (last_split_)
      for (std::int64_t n = 0; n < p.N; ++n) base[n] = base[n] + second[n];
    for (std::int64_t j = 0; j < p.r; ++j) {
      const float hj = h[t * p.r + j];
      const float* b = &p.Bt[j * p.N];
      for (std::int64_t n = 0; n < p.N; ++n) low[n] = Arith::mac(low[n], hj, b[n]);
    }
    for (std::int64_t n = 0; n < p.N; ++n)
      out[t * p.N + n] = Arith::round_output(lora::forward_sum(base[n], low[n], s));
  }
  return y;
}

template <class Arith>
LoraGradients LoraHostTwin<Arith>::backward(const LoraInputs& in, const Tensor& dy) {
  validate_lora_inputs(in);
  validate_lora_dy(in, dy);
  const LoraPacked p = LoraPacked::from(in);
  const std::vector<float> h = low_rank_activations(p);
  const std::vector<float> g = unpack_f32(dy);  // [T][N]
  const float s = Arith::effective_scale(in.scale);

  std::vector<float> dh(static_cast<std::size_t>(p.T * p.r), 0.0f);
  for (std::int64_t t = 0; t < p.T; ++t) {
    float* acc = &dh[t * p.r];
    for (std::int64_t n = 0; n < p.N; ++n) {
      const float gn = g[t * p.N + n];
      const float* b = &p.B[n * p.r];
      for (std::int64_t j = 0; j < p.r; ++j) acc[j] = Arith::mac(acc[j], gn, b[j]);
    }
    for (std::int64_t j = 0; j < p.r; ++j) acc[j] = lora::scaled(s, acc[j]);
  }

  LoraGradients out;
  out.dx = Tensor::zeros(DType::bf16, {p.T, p.K});
  auto* dx = out.dx.storage<std::uint16_t>();
  std::vector<float> acc(p.K);
  for (std::int64_t t = 0; t < p.T; ++t) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (std::int64_t n = 0; n < p.N; ++n) {
      const float gn = g[t * p.N + n];
      const float* w = &p.W[n * p.K];
      for (std::int64_t k = 0; k < p.K; ++k) acc[k] = Arith::mac(acc[k], gn, w[k]);
    }
    for (std::int64_t j = 0; j < p.r; ++j) {
      const float d = dh[t * p.r + j];
      const float* a = &p.A[j * p.K];
      for (std::int64_t k = 0; k < p.K; ++k) acc[k] = Arith::mac(acc[k], d, a[k]);
    }
    for (std::int64_t k = 0; k < p.K; ++k) dx[t * p.K + k] = Arith::round_output(acc[k]);
  }

  out.dA = Tensor::zeros(DType::f32, {p.r, p.K});
  float* dA = out.dA.storage<float>();
  for (std::int64_t j = 0; j < p.r; ++j) {
    float* a = &dA[j * p.K];
    for (std::int64_t t = 0; t < p.T; ++t) {
      const float d = dh[t * p.r + j];
      const float* xt = &p.x[t * p.K];
      for (std::int64_t k = 0; k < p.K; ++k) a[k] = Arith::mac(a[k], d, xt[k]);
    }
  }

  out.dB = Tensor::zeros(DType::f32, {p.N, p.r});
  float* dB = out.dB.storage<float>();
  std::vector<float> col(p.N);
  for (std::int64_t j = 0; j < p.r; ++j) {
    std::fill(col.begin(), col.end(), 0.0f);
    for (std::int64_t t = 0; t < p.T; ++t) {
      const float hj = h[t * p.r + j];
      const float* gt = &g[t * p.N];
      for (std::int64_t n = 0; n < p.N; ++n) col[n] = Arith::mac(col[n], gt[n], hj);
    }
    for (std::int64_t n = 0; n < p.N; ++n) dB[n * p.r + j] = lora::scaled(s, col[n]);
  }
  return out;
}

}  // namespace parity::subjects::rlkernels
