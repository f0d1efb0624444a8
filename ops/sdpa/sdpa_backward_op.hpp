#pragma once
// The backward of sdpa (sdpa_op.hpp), declared as an op of its own (ops/README.md, "Backward
// ops"): given q, k, v and the output's gradient do, the gradients of o with respect to q, k
// and v, written as the explicit backward formula (the FlashAttention-2 backward, Dao 2023,
// Algorithm 2) over the real type, so that Bounded derives their bounds as for any op:
//   P[i, j]  = p[i, j] / l[i]                         (sdpa's softmax row, recomputed)
//   o[i, d]  = (sum_j p[i, j] v[j, d]) / l[i]         (sdpa's o)
//   Dl[i]    = sum_d do[i, d] o[i, d]                  (rowsum(dO o O))
//   dP[i, j] = sum_d do[i, d] v[j, d]
//   dS[i, j] = P[i, j] (dP[i, j] - Dl[i])
//   dq[i, d] = (sum_j dS[i, j] k[j, d]) * scale,   dk[j, d] = (sum_i dS[i, j] q[i, d]) * scale,
//   dv[j, d] = sum_i P[i, j] do[i, d]
// over the visible pairs (causal: j <= i). With grouped-query heads (sdpa_op.hpp) dk and dv of a
// key/value head sum over the G query heads that read it as well as their queries. The inputs
// are those autograd hands the backward of
// at::scaled_dot_product_attention; a kernel whose backward also takes o and the logsumexp (as
// FlashAttention's does) is a subject that runs its own forward for them, as a training step does.
#include <parity/ops/sdpa/sdpa_op.hpp>

namespace parity::ops::sdpa {

struct SdpaBackward {
  static OpDecl declaration() {
    return {
        .name = "sdpa_backward",
        .description =
            "attention backward: dq, dk, dv of sdpa's o given do, causal or not; q, do, dq [B,H,S,D] with H = "
            "Hkv*G, k, v, dk, dv [B,Hkv,S,D], in memory [B,H,S,D] or [B,S,H,D] (layout)",
        .extents = Shape::extents(),
        .inputs = {Shape::input("q", {1.0, 10.0}), Shape::kv_input("k", {1.0, 10.0}), Shape::kv_input("v"),
                   Shape::input("do")},
        .outputs = {Shape::output("dq"), Shape::kv_output("dk"), Shape::kv_output("dv")},
        .params = Shape::params(),
        .row_extent = "B",
        .reduced_extents = {"S", "D"},
        .max_elements = std::int64_t{1} << 18,
        // Six products of the forward's size: a quarter of sdpa's work keeps a case as fast.
        .work = "B*Hkv*G*S*S*D",
        .max_work = std::int64_t{1} << 22,
        .reach_elements = std::int64_t{1} << 21,
        .reach_work = std::int64_t{1} << 25,
        .oracle_cases = 30,  // as sdpa's (sdpa_op.hpp): 100 cases took 72 s
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const Heads hd = Shape::heads(e);
    const std::int64_t S = hd.S, D = hd.D, G = hd.G;
    const bool causal = e.param_value("causal") != 0;
    const auto q = e.input("q"), k = e.input("k"), v = e.input("v"), dout = e.input("do");
    auto dq = e.output("dq");
    auto dk = e.output("dk");
    auto dv = e.output("dv");
    const R scale = e.param("scale");
    // P and dS of the G query heads of one key/value head: [G, S, S].
    std::vector<R> P(static_cast<std::size_t>(G * S * S)), dS(P.size()), o(static_cast<std::size_t>(D));
    const auto at = [S](std::int64_t g, std::int64_t i, std::int64_t j) {
      return static_cast<std::size_t>((g * S + i) * S + j);
    };
    for (std::int64_t b = 0; b < e.extent("B"); ++b)
      for (std::int64_t kvh = 0; kvh < hd.Hkv(); ++kvh) {
        for (std::int64_t g = 0; g < G; ++g) {
          const std::int64_t h = kvh * G + g;
          for_each_softmax_row(e, q, k, hd, causal, scale, b, h, [&](std::int64_t i, const SoftmaxRow<R>& r) {
            const std::int64_t n = static_cast<std::int64_t>(r.p.size());
            for (std::int64_t d = 0; d < D; ++d)
              o[d] = e.sum(n, [&](std::int64_t j) { return r.p[j] * v(b, hd.kv_col(j, h, d)); }) / r.l;
            const R dl = e.sum(D, [&](std::int64_t d) { return dout(b, hd.col(i, h, d)) * o[d]; });
            for (std::int64_t j = 0; j < n; ++j) {
              P[at(g, i, j)] = r.p[j] / r.l;
              const R dp =
                  e.sum(D, [&](std::int64_t d) { return dout(b, hd.col(i, h, d)) * v(b, hd.kv_col(j, h, d)); });
              dS[at(g, i, j)] = P[at(g, i, j)] * (dp - dl);
            }
            for (std::int64_t d = 0; d < D; ++d)
              dq(b, hd.col(i, h, d)) =
                  e.sum(n, [&](std::int64_t j) { return dS[at(g, i, j)] * k(b, hd.kv_col(j, h, d)); }) * scale;
          });
        }
        // dk and dv of key j sum over the G query heads and, in each, the queries that see j
        // (first .. S - 1): G * (S - first) terms, in any order.
        for (std::int64_t j = 0; j < S; ++j) {
          const std::int64_t first = causal ? j : 0, n = S - first;
          const auto term = [&](const std::vector<R>& w, const auto& x, std::int64_t t, std::int64_t d) {
            const std::int64_t g = t / n, i = first + t % n;
            return w[at(g, i, j)] * x(b, hd.col(i, kvh * G + g, d));
          };
          for (std::int64_t d = 0; d < D; ++d) {
            dk(b, hd.kv().col(j, kvh, d)) = e.sum(G * n, [&](std::int64_t t) { return term(dS, q, t, d); }) * scale;
            dv(b, hd.kv().col(j, kvh, d)) = e.sum(G * n, [&](std::int64_t t) { return term(P, dout, t, d); });
          }
        }
      }
  }
};

}  // namespace parity::ops::sdpa
