#pragma once
// Template bodies of LoraHostTwin (included by lora_host.hpp only). Each reduction of
// lora_arith.cuh is one call of `chains`: C[i][j] over p, with the operands viewed so that the
// reduction index is p and the output column is j.

namespace parity::subjects::rlkernels {

template <class Arith>
void LoraHostTwin<Arith>::chains(std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c,
                                 std::int64_t ldc) const {
  if constexpr (kKeepsKernelMac<Arith>)
    fma_chains(isa_, M, a, lda, b, c, ldc);
  else
    mac_chains<Arith>(M, a, lda, b, c, ldc);
}

template <class Arith>
std::vector<float> LoraHostTwin<Arith>::low_rank_activations(const std::vector<float>& x, const LoraInputs& in) const {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), r = in.A.dim(0);
  std::vector<float> h(static_cast<std::size_t>(T * r), 0.0f);
  chains(T, x.data(), K, MatrixView::of(in.A).transposed(), h.data(), r);  // b(k, j) = A[j][k]
  return h;
}

template <class Arith>
Tensor LoraHostTwin<Arith>::forward(const LoraInputs& in) {
  validate_lora_inputs(in);
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const std::vector<float> x = to_floats(MatrixView::of(in.x));
  const std::vector<float> h = low_rank_activations(x, in);
  const float s = Arith::effective_scale(in.scale);
  last_split_ = Arith::split_base_reduction(T, K);
  const MatrixView Wt = MatrixView::of(in.W).transposed();  // b(k, n) = W[n][k]
  std::vector<float> base(static_cast<std::size_t>(T * N), 0.0f), low(base);
  if (last_split_) {
    const std::int64_t half = K / 2;
    std::vector<float> second(base);
    chains(T, x.data(), K, Wt.row_range(0, half), base.data(), N);
    chains(T, x.data() + half, K, Wt.row_range(half, K), second.data(), N);
    for (std::size_t i = 0; i < base.size(); ++i) base[i] = base[i] + second[i];
  } else {
    chains(T, x.data(), K, Wt, base.data(), N);
  }
  chains(T, h.data(), r, MatrixView::of(in.B).transposed(), low.data(), N);  // b(j, n) = B[n][j]
  Tensor y = Tensor::zeros(DType::bf16, {T, N});
  auto* out = y.storage<std::uint16_t>();
  for (std::size_t i = 0; i < base.size(); ++i) out[i] = Arith::round_output(lora::forward_sum(base[i], low[i], s));
  return y;
}

template <class Arith>
LoraGradients LoraHostTwin<Arith>::backward(const LoraInputs& in, const Tensor& dy) {
  validate_lora_inputs(in);
  validate_lora_dy(in, dy);
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const std::vector<float> x = to_floats(MatrixView::of(in.x));
  const std::vector<float> g = to_floats(MatrixView::of(dy));  // [T][N]
  const std::vector<float> h = low_rank_activations(x, in);
  const float s = Arith::effective_scale(in.scale);

  std::vector<float> dh(static_cast<std::size_t>(T * r), 0.0f);
  chains(T, g.data(), N, MatrixView::of(in.B), dh.data(), r);  // b(n, j) = B[n][j]
  for (float& v : dh) v = lora::scaled(s, v);

  LoraGradients out;
  std::vector<float> acc(static_cast<std::size_t>(T * K), 0.0f);
  chains(T, g.data(), N, MatrixView::of(in.W), acc.data(), K);   // b(n, k) = W[n][k], then
  chains(T, dh.data(), r, MatrixView::of(in.A), acc.data(), K);  // b(j, k) = A[j][k], one chain
  out.dx = Tensor::zeros(DType::bf16, {T, K});
  auto* dx = out.dx.storage<std::uint16_t>();
  for (std::size_t i = 0; i < acc.size(); ++i) dx[i] = Arith::round_output(acc[i]);

  // dA[j][k] over t: a(j, t) = dh[t][j], b(t, k) = x[t][k].
  const std::vector<float> dht = to_floats(MatrixView::of_floats(dh.data(), T, r, r).transposed());
  out.dA = Tensor::zeros(DType::f32, {r, K});
  chains(r, dht.data(), T, MatrixView::of_floats(x.data(), T, K, K), out.dA.storage<float>(), K);

  // dB[n][j] = s * (chain over t of h[t][j] dy[t][n]), computed as its transpose [j][n].
  const std::vector<float> ht = to_floats(MatrixView::of_floats(h.data(), T, r, r).transposed());
  std::vector<float> dbt(static_cast<std::size_t>(r * N), 0.0f);
  chains(r, ht.data(), T, MatrixView::of_floats(g.data(), T, N, N), dbt.data(), N);
  out.dB = Tensor::zeros(DType::f32, {N, r});
  float* dB = out.dB.storage<float>();
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t j = 0; j < r; ++j) dB[n * r + j] = lora::scaled(s, dbt[j * N + n]);
  return out;
}

}  // namespace parity::subjects::rlkernels
