#pragma once
// Template bodies of LoraHostTwin (included by lora_host.hpp only). Each reduction of
// lora_arith.cuh is one call of `chains`: C[i][j] over p, with the operands viewed so that the
// reduction index is p and the output column is j. Intermediates live in this thread's
// scratch buffers (scratch.hpp).
#include <parity/subjects/builtin/scratch.hpp>

namespace parity::subjects::builtin {

template <class Arith>
void LoraHostTwin<Arith>::chains(std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c,
                                 std::int64_t ldc) const {
  if constexpr (kKeepsKernelMac<Arith>) fma_chains(isa_, M, a, lda, b, c, ldc);
  else mac_chains<Arith>(M, a, lda, b, c, ldc);
}

template <class Arith>
const float* LoraHostTwin<Arith>::low_rank_activations(const float* x, const LoraInputs& in, float* h) const {
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), r = in.A.dim(0);
  chains(T, x, K, MatrixView::of(in.A).transposed(), h, r);  // b(k, j) = A[j][k]
  return h;
}

template <class Arith>
Tensor LoraHostTwin<Arith>::forward(const LoraInputs& in) {
  validate_lora_inputs(in);
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const auto n = [](std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); };
  float* x = zeroed_scratch(0, n(T, K));
  to_floats(MatrixView::of(in.x), x);
  const float* h = low_rank_activations(x, in, zeroed_scratch(1, n(T, r)));
  const float s = Arith::effective_scale(in.scale);
  last_split_ = Arith::split_base_reduction(T, K);
  const MatrixView Wt = MatrixView::of(in.W).transposed();  // b(k, n) = W[n][k]
  float* base = zeroed_scratch(2, n(T, N));
  float* low = zeroed_scratch(3, n(T, N));
  if (last_split_) {
    const std::int64_t half = K / 2;
    float* second = zeroed_scratch(4, n(T, N));
    chains(T, x, K, Wt.row_range(0, half), base, N);
    chains(T, x + half, K, Wt.row_range(half, K), second, N);
    for (std::size_t i = 0; i < n(T, N); ++i) base[i] = base[i] + second[i];
  } else {
    chains(T, x, K, Wt, base, N);
  }
  chains(T, h, r, MatrixView::of(in.B).transposed(), low, N);  // b(j, n) = B[n][j]
  Tensor y = Tensor::zeros(DType::bf16, {T, N});
  auto* out = y.storage<std::uint16_t>();
  for (std::size_t i = 0; i < n(T, N); ++i) out[i] = Arith::round_output(lora::forward_sum(base[i], low[i], s));
  return y;
}

template <class Arith>
LoraGradients LoraHostTwin<Arith>::backward(const LoraInputs& in, const Tensor& dy) {
  validate_lora_inputs(in);
  validate_lora_dy(in, dy);
  const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const auto n = [](std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); };
  float* x = zeroed_scratch(0, n(T, K));
  to_floats(MatrixView::of(in.x), x);
  float* g = zeroed_scratch(2, n(T, N));  // dy, [T][N]
  to_floats(MatrixView::of(dy), g);
  const float* h = low_rank_activations(x, in, zeroed_scratch(1, n(T, r)));
  const float s = Arith::effective_scale(in.scale);

  float* dh = zeroed_scratch(3, n(T, r));
  chains(T, g, N, MatrixView::of(in.B), dh, r);  // b(n, j) = B[n][j]
  for (std::size_t i = 0; i < n(T, r); ++i) dh[i] = lora::scaled(s, dh[i]);

  LoraGradients out;
  float* acc = zeroed_scratch(4, n(T, K));
  chains(T, g, N, MatrixView::of(in.W), acc, K);   // b(n, k) = W[n][k], then
  chains(T, dh, r, MatrixView::of(in.A), acc, K);  // b(j, k) = A[j][k], one chain
  out.dx = Tensor::zeros(DType::bf16, {T, K});
  auto* dx = out.dx.storage<std::uint16_t>();
  for (std::size_t i = 0; i < n(T, K); ++i) dx[i] = Arith::round_output(acc[i]);

  // dA[j][k] over t: a(j, t) = dh[t][j], b(t, k) = x[t][k].
  const std::vector<float> dht = to_floats(MatrixView::of_floats(dh, T, r, r).transposed());
  out.dA = Tensor::zeros(DType::f32, {r, K});
  chains(r, dht.data(), T, MatrixView::of_floats(x, T, K, K), out.dA.storage<float>(), K);

  // dB[n][j] = s * (chain over t of h[t][j] dy[t][n]), computed as its transpose [j][n].
  const std::vector<float> ht = to_floats(MatrixView::of_floats(h, T, r, r).transposed());
  float* dbt = zeroed_scratch(5, n(r, N));
  chains(r, ht.data(), T, MatrixView::of_floats(g, T, N, N), dbt, N);
  out.dB = Tensor::zeros(DType::f32, {N, r});
  float* dB = out.dB.storage<float>();
  for (std::int64_t i = 0; i < N; ++i)
    for (std::int64_t j = 0; j < r; ++j) dB[i * r + j] = lora::scaled(s, dbt[j * N + i]);
  return out;
}

}  // namespace parity::subjects::builtin
