#pragma once
// Scaled dot-product attention (Vaswani et al. 2017) as transformers run it, per batch b,
// head h and query row i of S (self-attention: S queries, S keys):
//   s[i, j] = (sum_d q[i, d] k[j, d]) * scale            over the keys j visible to i
//   m[i]    = max_j s[i, j],   p[i, j] = exp(s[i, j] - m[i]),   l[i] = sum_j p[i, j]
//   o[i, d] = (sum_j p[i, j] v[j, d]) / l[i],   lse[i] = m[i] + log(l[i])
// causal: query i sees keys 0..i. Grouped-query attention: H = Hkv*G query heads, query head h
// reads key/value head h / G (sdpa_heads.hpp); multi-head attention is G = 1, multi-query Hkv = 1.
// A subject's q and o (and do, dq) are [B, H, S, D], its k and v (and dk, dv) [B, Hkv, S, D] and
// its lse [B, H, S]; the parameter layout says how their memory is ordered ([B, H, S, D] or
// [B, S, H, D], sdpa_heads.hpp), which a subject reads from their strides. The engine holds
// them as the matrices [B, S*H*D], [B, S*Hkv*D] and [B, H*S] (op_view.hpp). The rows that must be independent
// and batch invariant are the batch elements b (what a server batching requests needs); every
// (b, h, i) row is independent in the formula, and the head layouts and S, H, D cross plan
// thresholds inside each b. q, k, v, o and lse share one dtype; a float32 or bf16 subject
// computes in float32 and rounds each output once.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/sdpa/sdpa_heads.hpp>

namespace parity::ops::sdpa {

// The parts of the declaration sdpa and sdpa_backward share.
struct Shape {
  // The query heads H are the extents' product Hkv*G, so every drawn or shrunk case is a valid
  // grouping. Plan thresholds: FlashAttention's key/query tiles (64, 128) and split-KV
  // (flash-decoding) plans chosen from S and the batch's B*H; head dims 64 and 128 select
  // kernels; FlashAttention-3 packs a key/value head's G query heads into its query tiles, a plan
  // chosen from S*G, which fills a 64-row tile at S = 64 / G for G = 1, 2, 4, 8 (S's 16 and 32,
  // with G's 2, 4, 8 and S's small values 1..8). The work B*H*S*S*D (each score's dot product) is
  // capped so the Bounded and MPFR references of a case take at most about a second
  // (ops/README.md). Reach cases (op_cases.hpp) draw S up to 8192 (long-context prefill, split-KV
  // at kv lengths 1024 to 8192), B up to 64 and Hkv up to 32 (split counts chosen from B*H
  // against the SM count), within each op's reach_elements and reach_work.
  static std::vector<ExtentDecl> extents() {
    return {{.name = "B", .max = 8, .thresholds = {16, 32, 64}, .reach = 64},
            {.name = "Hkv", .max = 8, .thresholds = {16, 32}, .reach = 32},
            {.name = "G", .max = 8, .thresholds = {2, 4, 8}},
            {.name = "S", .max = 512, .thresholds = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}, .reach = 8192},
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
  static TensorDecl kv_input(const char* name, std::vector<double> scales = {1.0}) {
    TensorDecl t = kv_output(name);
    t.scales = std::move(scales);
    return t;
  }
  // A query-head operand: [B, H, S, D] (H = Hkv*G), in memory [B, H, S, D] (layout 0) or
  // [B, S, H, D] (layout 1).
  static TensorDecl output(const char* name) { return headed(name, "Hkv*G"); }
  // A key/value-head operand: [B, Hkv, S, D], in memory as the query heads'.
  static TensorDecl kv_output(const char* name) { return headed(name, "Hkv"); }
  static TensorDecl lse(const char* name) {
    return {.name = name, .shape = {"B", "Hkv*G*S"}, .dtype_group = "act", .dims = {"B", "Hkv*G", "S"}};
  }

  template <class R>
  static Heads heads(const Eval<R>& e) {
    return {.S = e.extent("S"),
            .H = e.extent("Hkv") * e.extent("G"),
            .D = e.extent("D"),
            .G = e.extent("G"),
            .bshd = e.param_value("layout") != 0};
  }

 private:
  static TensorDecl headed(const char* name, const std::string& heads) {
    return {.name = name,
            .shape = {"B", "S*" + heads + "*D"},
            .dtype_group = "act",
            .dims = {"B", heads, "S", "D"},
            .order_param = "layout",
            .orders = {{heads, "S", "D"}, {"S", heads, "D"}}};
  }
};

// The softmax row of query i of head (b, h): its visible keys' unnormalised probabilities
// p[j] = exp(s[i, j] - m) and their sum l, with m.
template <class R>
struct SoftmaxRow {
  std::vector<R> p;
  R m, l;
};

// The query rows whose scores form one product: a block of Filtered scores at S = 8192 keys is
// 16 MB.
inline constexpr std::int64_t kScoreRows = 64;

// Calls f(i0, rs) for each block of query rows i0 .. i0 + rs.size() - 1 of head (b, h) in order,
// rs[t] the softmax row of query i0 + t over its visible keys. The scores sum_d q[i, d] k[j, d] of a
// block's kScoreRows query rows are one product of those rows of q and the keys the last of them
// sees (Eval::matmul: each element that D-term sum in double, MPFR and Bounded, a BLAS's in
// Filtered).
template <class R, class In, class F>
void for_each_softmax_block(const Eval<R>& e, const In& q, const In& k, const Heads& hd, bool causal, const R& scale,
                            std::int64_t b, std::int64_t h, F f) {
  for (std::int64_t i0 = 0; i0 < hd.S; i0 += kScoreRows) {
    const std::int64_t rows = std::min(kScoreRows, hd.S - i0), keys = visible_keys(causal, i0 + rows - 1, hd.S);
    const Matrix<R> qs =
        e.matrix(rows, hd.D, [&](std::int64_t i, std::int64_t d) { return q(b, hd.col(i0 + i, h, d)); });
    const Matrix<R> ks = e.matrix(keys, hd.D, [&](std::int64_t j, std::int64_t d) { return k(b, hd.kv_col(j, h, d)); });
    const Matrix<R> scores = e.matmul(qs, ks.t());
    std::vector<SoftmaxRow<R>> rs(static_cast<std::size_t>(rows));
    for (std::int64_t t = 0; t < rows; ++t) {
      const std::int64_t n = visible_keys(causal, i0 + t, hd.S);
      SoftmaxRow<R>& r = rs[static_cast<std::size_t>(t)];
      std::vector<R> s(static_cast<std::size_t>(n));
      for (std::int64_t j = 0; j < n; ++j) s[j] = scores(t, j) * scale;
      r.m = e.max(n, [&](std::int64_t j) { return s[j]; });
      for (std::int64_t j = 0; j < n; ++j) r.p.push_back(exp(s[j] - r.m));
      r.l = e.sum(n, [&](std::int64_t j) { return r.p[j]; });
    }
    f(i0, rs);
  }
}

// Calls f(i, r) for each query row i of head (b, h) in order, r its softmax row
// (for_each_softmax_block's).
template <class R, class In, class F>
void for_each_softmax_row(const Eval<R>& e, const In& q, const In& k, const Heads& hd, bool causal, const R& scale,
                          std::int64_t b, std::int64_t h, F f) {
  for_each_softmax_block(e, q, k, hd, causal, scale, b, h, [&](std::int64_t i0, const std::vector<SoftmaxRow<R>>& rs) {
    for (std::size_t t = 0; t < rs.size(); ++t) f(i0 + static_cast<std::int64_t>(t), rs[t]);
  });
}

// The query rows of head h of batch element b over their visible keys (hd.S of them, or i + 1
// causal): o's D elements at hd.col(i, h, d), and the logsumexp at lse's column lse_col(i). Without
// the causal mask every row sees all S keys, and a block's sums p v are one product P V
// (Eval::matmul, each element the S-term sum); with it each row's is its own i + 1 terms.
template <class R, class In, class Out, class LseCol>
void attention_head(Eval<R>& e, const In& q, const In& k, const In& v, Out& o, Out& lse, const Heads& hd, bool causal,
                    const R& scale, std::int64_t b, std::int64_t h, LseCol lse_col) {
  const Matrix<R> vs =
      causal ? Matrix<R>(0, 0)
             : e.matrix(hd.S, hd.D, [&](std::int64_t j, std::int64_t d) { return v(b, hd.kv_col(j, h, d)); });
  for_each_softmax_block(e, q, k, hd, causal, scale, b, h, [&](std::int64_t i0, const std::vector<SoftmaxRow<R>>& rs) {
    const auto rows = static_cast<std::int64_t>(rs.size());
    const Matrix<R> ps = causal ? Matrix<R>(0, 0) : e.matrix(rows, hd.S, [&](std::int64_t t, std::int64_t j) {
      return rs[static_cast<std::size_t>(t)].p[static_cast<std::size_t>(j)];
    });
    const Matrix<R> pv = causal ? Matrix<R>(0, 0) : e.matmul(ps, vs);
    for (std::int64_t t = 0; t < rows; ++t) {
      const SoftmaxRow<R>& r = rs[static_cast<std::size_t>(t)];
      const std::int64_t i = i0 + t, n = static_cast<std::int64_t>(r.p.size());
      for (std::int64_t d = 0; d < hd.D; ++d)
        o(b, hd.col(i, h, d)) =
            (causal ? e.sum(n, [&](std::int64_t j) { return r.p[j] * v(b, hd.kv_col(j, h, d)); }) : pv(t, d)) / r.l;
      lse(b, lse_col(i)) = r.m + log(r.l);
    }
  });
}

struct Sdpa {
  static OpDecl declaration() {
    return {
        .name = "sdpa",
        .description =
            "attention: o = softmax(scale q k^T, causal or not) v and its logsumexp lse; q, o [B,H,S,D] with "
            "H = Hkv*G query heads, k, v [B,Hkv,S,D] (query head h reads k, v head h/G), in memory [B,H,S,D] or "
            "[B,S,H,D] (layout), lse [B,H,S]",
        .extents = Shape::extents(),
        .inputs = {Shape::input("q", {1.0, 10.0}), Shape::kv_input("k", {1.0, 10.0}), Shape::kv_input("v")},
        .outputs = {Shape::output("o"), Shape::lse("lse")},
        .params = Shape::params(),
        .row_extent = "B",
        .reduced_extents = {"S", "D"},
        .max_elements = std::int64_t{1} << 18,
        .work = "B*Hkv*G*S*S*D",
        .max_work = std::int64_t{1} << 24,
        .reach_elements = std::int64_t{1} << 21,
        .reach_work = std::int64_t{1} << 27,
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
        attention_head(e, q, k, v, o, lse, hd, causal, scale, b, h, [&](std::int64_t i) { return hd.lse_col(i, h); });
  }
};

// LibTorch's reference subjects (sdpa_torch.cpp; builtin_subjects.hpp, torch_subject).
// LibTorch's attention on the CPU as reference subjects of sdpa and sdpa_backward: findings, never gated. From
// LibTorch 2.2 on, at::_scaled_dot_product_flash_attention_for_cpu is the kernel at::scaled_dot_product_attention
// runs on the CPU for these dtypes, and the one that returns the logsumexp; its _backward is what autograd runs for
// it. LibTorch 1.13 has no fused CPU attention: there the subjects are ATen's composition of its math path in float32
// (matmul, softmax, logsumexp), differentiated by autograd. Their [B, H, S, D] tensors go to ATen as they are: the
// layout's memory order in their strides, as model code passes transposed views. With grouped-query heads (G > 1)
// k and v [B, Hkv, S, D] are first repeated along the heads (repeat_interleave, what scaled_dot_product_attention's
// enable_gqa computes; the fused CPU kernel takes equal head counts), and dk, dv are the sums of their copies'
// gradients over each group (LibTorch's sum; autograd's on 1.13).
std::unique_ptr<OpSubject> make_torch_cpu();
// What the subjects run in this LibTorch, for their descriptions.
std::string torch_kernel();
std::unique_ptr<OpSubject> make_torch_cpu_backward();
// LibTorch's attention forward as sdpa_varlen's reference subject: make_torch_cpu's kernel on each
// packed sequence alone ([L_b, H, D] seen as [1, H, L_b, D]), the outputs packed back in order.
std::unique_ptr<OpSubject> make_torch_cpu_varlen();

}  // namespace parity::ops::sdpa
