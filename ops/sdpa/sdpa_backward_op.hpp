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
// over the visible pairs (causal: j <= i). The inputs are those autograd hands the backward of
// at::scaled_dot_product_attention; a kernel whose backward also takes o and the logsumexp (as
// FlashAttention's does) is a subject that runs its own forward for them, as a training step does.
#include <parity/ops/sdpa/sdpa_op.hpp>

namespace parity::ops::sdpa {

struct SdpaBackward {
  static OpDecl declaration() {
    return {
        .name = "sdpa_backward",
        .description =
            "attention backward: dq, dk, dv of sdpa's o given do, causal or not; every tensor [B,H,S,D] in memory "
            "[B,H,S,D] or [B,S,H,D] (layout)",
        .extents = Shape::extents(),
        .inputs = {Shape::input("q", {1.0, 10.0}), Shape::input("k", {1.0, 10.0}), Shape::input("v"),
                   Shape::input("do")},
        .outputs = {Shape::output("dq"), Shape::output("dk"), Shape::output("dv")},
        .params = Shape::params(),
        .row_extent = "B",
        .reduced_extents = {"S", "D"},
        .max_elements = std::int64_t{1} << 18,
        // Six products of the forward's size: a quarter of sdpa's work keeps a case as fast.
        .work = "B*H*S*S*D",
        .max_work = std::int64_t{1} << 22,
        .oracle_cases = 30,  // as sdpa's (sdpa_op.hpp): 100 cases took 72 s
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const Heads hd = Shape::heads(e);
    const std::int64_t S = hd.S, D = hd.D;
    const bool causal = e.param_value("causal") != 0;
    const auto q = e.input("q"), k = e.input("k"), v = e.input("v"), dout = e.input("do");
    auto dq = e.output("dq");
    auto dk = e.output("dk");
    auto dv = e.output("dv");
    const R scale = e.param("scale");
    std::vector<R> P(static_cast<std::size_t>(S * S)), dS(static_cast<std::size_t>(S * S)),
        o(static_cast<std::size_t>(D));
    for (std::int64_t b = 0; b < e.extent("B"); ++b)
      for (std::int64_t h = 0; h < hd.H; ++h) {
        const auto at = [&](const auto& x, std::int64_t s, std::int64_t d) { return x(b, hd.col(s, h, d)); };
        for (std::int64_t i = 0; i < S; ++i) {
          const std::int64_t n = visible_keys(causal, i, S);
          const SoftmaxRow<R> r = softmax_row(e, q, k, hd, b, h, i, n, scale);
          for (std::int64_t d = 0; d < D; ++d)
            o[d] = e.sum(n, [&](std::int64_t j) { return r.p[j] * at(v, j, d); }) / r.l;
          const R dl = e.sum(D, [&](std::int64_t d) { return at(dout, i, d) * o[d]; });
          for (std::int64_t j = 0; j < n; ++j) {
            P[i * S + j] = r.p[j] / r.l;
            const R dp = e.sum(D, [&](std::int64_t d) { return at(dout, i, d) * at(v, j, d); });
            dS[i * S + j] = P[i * S + j] * (dp - dl);
          }
          for (std::int64_t d = 0; d < D; ++d)
            dq(b, hd.col(i, h, d)) = e.sum(n, [&](std::int64_t j) { return dS[i * S + j] * at(k, j, d); }) * scale;
        }
        for (std::int64_t j = 0; j < S; ++j) {
          const std::int64_t first = causal ? j : 0;  // the queries that see key j: first .. S - 1
          for (std::int64_t d = 0; d < D; ++d) {
            dk(b, hd.col(j, h, d)) =
                e.sum(S - first, [&](std::int64_t t) { return dS[(first + t) * S + j] * at(q, first + t, d); }) * scale;
            dv(b, hd.col(j, h, d)) =
                e.sum(S - first, [&](std::int64_t t) { return P[(first + t) * S + j] * at(dout, first + t, d); });
          }
        }
      }
  }
};

}  // namespace parity::ops::sdpa
