#pragma once
// The layers of the tiny GPT in float64, forward and manual backward, as pure functions over
// row-major spans (docs/math.md, "Tiny GPT"; llm.c train_gpt2.c gives the backward formulas).
// Sums run in ascending index order. A backward writes its input gradient (dx, du, dq, ...)
// and accumulates (+=) its parameter gradients (dW, db, dg), so a caller zeroes those once.
// No I/O, no state: the same inputs give the same bits.
#include <cstdint>
#include <span>
#include <vector>

#include <parity/oracles/tiny_gpt_model.hpp>

namespace parity::oracles::tiny_gpt {

// y [rows, out] = x [rows, in] W^T + b, W [out, in]; b may be empty (no bias).
void linear_forward(std::span<const double> x, std::span<const double> W, std::span<const double> b, std::int64_t rows,
                    std::int64_t in, std::int64_t out, std::span<double> y);
// For dy = dL/dy [rows, out]: dx = dy W (skipped when dx is empty), dW += dy^T x,
// db += the column sums of dy (skipped when db is empty).
void linear_backward(std::span<const double> dy, std::span<const double> x, std::span<const double> W,
                     std::int64_t rows, std::int64_t in, std::int64_t out, std::span<double> dx, std::span<double> dW,
                     std::span<double> db);

struct LayerNormCache {
  std::vector<double> xhat;  // [rows, n], (x - mean) * rstd
  std::vector<double> rstd;  // [rows], 1 / sqrt(var + eps)
};

// y = xhat * g + b row by row; var is the mean of (x - mean)^2 over n (biased, as LayerNorm
// has it), or over n - 1 when `unbiased` (a probe: torch.var's default).
LayerNormCache layer_norm_forward(std::span<const double> x, std::span<const double> g, std::span<const double> b,
                                  std::int64_t rows, std::int64_t n, double eps, bool unbiased, std::span<double> y);
// With gg = g * dy and N = n (n - 1 when unbiased):
//   dx = rstd (gg - mean(gg) - xhat * sum(gg * xhat) / N),  dg += sum_rows dy xhat,  db += sum_rows dy.
void layer_norm_backward(std::span<const double> dy, const LayerNormCache& cache, std::span<const double> g,
                         std::int64_t rows, std::int64_t n, bool unbiased, std::span<double> dx, std::span<double> dg,
                         std::span<double> db);

// Attention over q, k, v [T, d] split into `heads` column blocks of d / heads: per head
// S = scale q k^T, with the causal mask keys j > i are left out, P = softmax over the kept
// keys (max subtracted first), O = P v. Writes O [T, d] and P [heads, T, T] (0 where masked).
void attention_forward(std::span<const double> q, std::span<const double> k, std::span<const double> v, std::int64_t T,
                       std::int64_t d, std::int64_t heads, double scale, bool causal, std::span<double> O,
                       std::span<double> P);
// dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(dP P)), dq = scale dS K, dk = scale dS^T Q.
void attention_backward(std::span<const double> dO, std::span<const double> q, std::span<const double> k,
                        std::span<const double> v, std::span<const double> P, std::int64_t T, std::int64_t d,
                        std::int64_t heads, double scale, std::span<double> dq, std::span<double> dk,
                        std::span<double> dv);

// tanh: y = 0.5 u (1 + tanh(c (u + 0.044715 u^3))), c = sqrt(2/pi);
// exact: y = u Phi(u), Phi(u) = erfc(-u / sqrt 2) / 2.
void gelu_forward(std::span<const double> u, Gelu form, std::span<double> y);
// du = dy * y'(u): tanh: 0.5 (1 + t) + 0.5 u (1 - t^2) c (1 + 3 * 0.044715 u^2);
// exact: Phi(u) + u phi(u).
void gelu_backward(std::span<const double> u, std::span<const double> dy, Gelu form, std::span<double> du);

// Mean over the T rows of logsumexp(logits_t) - logits_t[targets_t]; writes
// dlogits = (softmax(logits_t) - onehot(targets_t)) / T.
double cross_entropy(std::span<const double> logits, std::span<const std::int64_t> targets, std::int64_t T,
                     std::int64_t vocab, std::span<double> dlogits);

}  // namespace parity::oracles::tiny_gpt
