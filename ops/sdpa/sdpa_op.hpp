#pragma once
// Scaled dot-product attention (Vaswani et al. 2017) as transformers run it, per batch b,
// head h and query row i of S (self-attention: S queries, S keys):
//   s[i, j] = (sum_d q[i, d] k[j, d]) * scale            over the keys j visible to i
//   m[i]    = max_j s[i, j],   p[i, j] = exp(s[i, j] - m[i]),   l[i] = sum_j p[i, j]
//   o[i, d] = (sum_j p[i, j] v[j, d]) / l[i],   lse[i] = m[i] + log(l[i])
// causal: query i sees keys 0..i. A subject's q, k, v, o (and gradients) are [B, H, S, D] and
// its lse [B, H, S]; the parameter layout says how their memory is ordered ([B, H, S, D] or
// [B, S, H, D], sdpa_heads.hpp), which a subject reads from their strides. The engine holds
// them as the matrices [B, S*H*D] and [B, H*S] (op_view.hpp). The rows that must be independent
// and batch invariant are the batch elements b (what a server batching requests needs); every
// (b, h, i) row is independent in the formula, and the head layouts and S, H, D cross plan
// thresholds inside each b. q, k, v, o and lse share one dtype; a float32 or bf16 subject
// computes in float32 and rounds each output once.
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/sdpa/sdpa_heads.hpp>

namespace parity::ops::sdpa {

// The parts of the declaration sdpa and sdpa_backward share.
struct Shape {
  // Plan thresholds: FlashAttention's key/query tiles (64, 128) and split-KV (flash-decoding)
  // plans chosen from S and the batch's B*H; head dims 64 and 128 select kernels. The work
  // B*H*S*S*D (each score's dot product) is capped so the Bounded and MPFR references of a
  // case take at most about a second (ops/README.md).
  static std::vector<ExtentDecl> extents() {
    return {{.name = "B", .max = 8},
            {.name = "H", .max = 8},
            {.name = "S", .max = 512, .thresholds = {64, 128, 256, 512}},
            {.name = "D", .max = 128, .thresholds = {64, 128}}};
  }
  static std::vector<ParamDecl> params() {
    return {{.name = "causal", .values = {0, 1}, .min = 0, .max = 1},
            {.name = "layout", .values = {0, 1}, .min = 0, .max = 1},
            // 1/sqrt(D) for D = 64 (exact) and 128 (rounded), and no scale at all.
            {.name = "scale", .values = {0.125, 0.08838834764831845, 1.0}, .min = 0, .max = 16}};
  }
  // Query and key scales of 10 give logits past 88, where exp overflows without the maximum
  // subtracted.
  static TensorDecl input(const char* name, std::vector<double> scales = {1.0}) {
    TensorDecl t = output(name);
    t.scales = std::move(scales);
    return t;
  }
  // [B, H, S, D], in memory [B, H, S, D] (layout 0) or [B, S, H, D] (layout 1).
  static TensorDecl output(const char* name) {
    return {.name = name,
            .shape = {"B", "S*H*D"},
            .dtype_group = "act",
            .dims = {"B", "H", "S", "D"},
            .order_param = "layout",
            .orders = {{"H", "S", "D"}, {"S", "H", "D"}}};
  }
  static TensorDecl lse(const char* name) {
    return {.name = name, .shape = {"B", "H*S"}, .dtype_group = "act", .dims = {"B", "H", "S"}};
  }

  template <class R>
  static Heads heads(const Eval<R>& e) {
    return {.S = e.extent("S"), .H = e.extent("H"), .D = e.extent("D"), .bshd = e.param_value("layout") != 0};
  }
};

// The softmax row of query i of head (b, h): its visible keys' unnormalised probabilities
// p[j] = exp(s[i, j] - m) and their sum l, with m.
template <class R>
struct SoftmaxRow {
  std::vector<R> p;
  R m, l;
};

template <class R, class In>
SoftmaxRow<R> softmax_row(const Eval<R>& e, const In& q, const In& k, const Heads& hd, std::int64_t b, std::int64_t h,
                          std::int64_t i, std::int64_t n, const R& scale) {
  SoftmaxRow<R> r;
  std::vector<R> s(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    s[j] = e.sum(hd.D, [&](std::int64_t d) { return q(b, hd.col(i, h, d)) * k(b, hd.col(j, h, d)); }) * scale;
  r.m = e.max(n, [&](std::int64_t j) { return s[j]; });
  for (std::int64_t j = 0; j < n; ++j) r.p.push_back(exp(s[j] - r.m));
  r.l = e.sum(n, [&](std::int64_t j) { return r.p[j]; });
  return r;
}

struct Sdpa {
  static OpDecl declaration() {
    return {
        .name = "sdpa",
        .description =
            "attention: o = softmax(scale q k^T, causal or not) v and its logsumexp lse; q, k, v, o [B,H,S,D] in "
            "memory [B,H,S,D] or [B,S,H,D] (layout), lse [B,H,S]",
        .extents = Shape::extents(),
        .inputs = {Shape::input("q", {1.0, 10.0}), Shape::input("k", {1.0, 10.0}), Shape::input("v")},
        .outputs = {Shape::output("o"), Shape::lse("lse")},
        .params = Shape::params(),
        .row_extent = "B",
        .reduced_extents = {"S", "D"},
        .max_elements = std::int64_t{1} << 18,
        .work = "B*H*S*S*D",
        .max_work = std::int64_t{1} << 24,
        // The MPFR self-check takes 0.65 s a case on average here (100 cases: 65 s, a twentieth of
        // CI's test time); 30 still draws the tiers and thresholds of S, and PARITY_CASES raises it.
        .oracle_cases = 30,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const Heads hd = Shape::heads(e);
    const bool causal = e.param_value("causal") != 0;
    const auto q = e.input("q"), k = e.input("k"), v = e.input("v");
    auto o = e.output("o");
    auto lse = e.output("lse");
    const R scale = e.param("scale");
    for (std::int64_t b = 0; b < e.extent("B"); ++b)
      for (std::int64_t h = 0; h < hd.H; ++h)
        for (std::int64_t i = 0; i < hd.S; ++i) {
          const std::int64_t n = visible_keys(causal, i, hd.S);
          const SoftmaxRow<R> r = softmax_row(e, q, k, hd, b, h, i, n, scale);
          for (std::int64_t d = 0; d < hd.D; ++d)
            o(b, hd.col(i, h, d)) = e.sum(n, [&](std::int64_t j) { return r.p[j] * v(b, hd.col(j, h, d)); }) / r.l;
          lse(b, hd.lse_col(i, h)) = r.m + log(r.l);
        }
  }
};

}  // namespace parity::ops::sdpa
