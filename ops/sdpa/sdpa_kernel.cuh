#pragma once
// parity's deterministic attention kernels (sdpa and sdpa_backward in sdpa.cu, sdpa_varlen in
// sdpa_varlen.cu; ops/kernels/host_call.hpp); where the operands keep their heads is
// sdpa_heads.hpp's. All float32, one rounding per operation, no contraction, every sum in
// ascending index order from 0.0f, each expression the tree of the references (sdpa_op.hpp,
// sdpa_backward_op.hpp):
//   score     (sum_d q[d] k[d]) * scale
//   attend    m = the scores' maximum (ascending, a NaN makes it NaN), p[j] = exp(s[j] - m),
//             l = sum_j p[j], acc[d] = sum_j p[j] v[j, d]; then o[d] = acc[d] / l, lse = m + log(l)
//   backward  P = p / l, Dl = sum_d do[d] o[d], dP = sum_d do[d] v[j, d], dS = P (dP - Dl),
//             dq = (sum_j dS k[j]) * scale, dk = (sum_i dS q[i]) * scale, dv = sum_i P do[i];
//             grouped-query heads: dk and dv of a key/value head sum over its query heads g
//             ascending, each one's queries i ascending, in one accumulator (group_column_sum)
// exp and log are core/detmath.hpp's rounded once to float32 (0.5 ulp and a double's error).
// The order depends on S, D and G alone, never on B, Hkv, the layout, the grid or the device.
// Declared arithmetic (kernel_arithmetic): any reduction order (the sequential one is one), exp_ulps = log_ulps =
// 0.5 + 2^-20. Loaders are callables (s, d) -> float over one head of one batch element.
#include <cstdint>
#include <memory>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/sdpa/sdpa_heads.hpp>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/core/thread_pool.hpp>
#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_op.hpp>
#endif

namespace parity::ops::sdpa {

inline Arithmetic kernel_arithmetic() { return {.exp_ulps = 0.5 + 0x1p-20, .log_ulps = 0.5 + 0x1p-20}; }

template <class Q, class K>
PARITY_HD float score(const Q& q, const K& k, std::int64_t i, std::int64_t j, std::int64_t D, float scale) {
  float s = 0.0f;
  for (std::int64_t d = 0; d < D; ++d) s = s + q(i, d) * k(j, d);
  return s * scale;
}

// The largest of x[0..n), n >= 1, NaN if any is NaN (the references' max).
PARITY_HD float row_max(const float* x, std::int64_t n) {
  float m = x[0];
  for (std::int64_t j = 1; j < n && m == m; ++j)
    if (x[j] != x[j] || x[j] > m) m = x[j];
  return m;
}

// Replaces the scores x[0..n) by exp(x[j] - m) and returns their sum.
PARITY_HD float exp_sum(float* x, std::int64_t n, float m) {
  float l = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) {
    x[j] = detmath::exp_f32(x[j] - m);
    l = l + x[j];
  }
  return l;
}

// sum_j p[j] v(j0 + j, d) over j in [0, n).
template <class V>
PARITY_HD float weighted(const float* p, const V& v, std::int64_t j0, std::int64_t n, std::int64_t d) {
  float s = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) s = s + p[j] * v(j0 + j, d);
  return s;
}

struct Partial {
  float m, l;
};

// Query i over keys [j0, j0 + n): p[0..n) the unnormalised probabilities, acc[0..D) the
// weighted values, and m and l. The whole row is j0 = 0, n = visible_keys.
template <class Q, class K, class V>
PARITY_HD Partial attend(const Q& q, const K& k, const V& v, std::int64_t i, std::int64_t j0, std::int64_t n,
                         std::int64_t D, float scale, float* p, float* acc) {
  for (std::int64_t j = 0; j < n; ++j) p[j] = score(q, k, i, j0 + j, D, scale);
  const float m = row_max(p, n);
  const float l = exp_sum(p, n, m);
  for (std::int64_t d = 0; d < D; ++d) acc[d] = weighted(p, v, j0, n, d);
  return {m, l};
}

PARITY_HD float logsumexp(Partial r) { return r.m + detmath::log_f32(r.l); }

// o[d] = acc[d] / l, in place.
PARITY_HD void normalise(float* acc, std::int64_t D, float l) {
  for (std::int64_t d = 0; d < D; ++d) acc[d] = acc[d] / l;
}

// dS = P (dP - Dl), FlashAttention-2's softmax gradient.
struct SoftmaxGradient {
  PARITY_HD float operator()(float P, float dp, float dl) const { return P * (dp - dl); }
};

// One query row's backward terms, after attend: o[d] = acc[d] / l in place, Dl, then
// P[j] = p[j] / l in place and ds[j] = grad(P[j], dP[j], Dl) over its n visible keys.
template <class V, class G, class Grad = SoftmaxGradient>
PARITY_HD void softmax_grad(const V& v, const G& dout, std::int64_t i, std::int64_t n, std::int64_t D, Partial r,
                            float* p, float* acc, float* ds, Grad grad = {}) {
  normalise(acc, D, r.l);
  float dl = 0.0f;
  for (std::int64_t d = 0; d < D; ++d) dl = dl + dout(i, d) * acc[d];
  for (std::int64_t j = 0; j < n; ++j) {
    p[j] = p[j] / r.l;
    float dp = 0.0f;
    for (std::int64_t d = 0; d < D; ++d) dp = dp + dout(i, d) * v(j, d);
    ds[j] = grad(p[j], dp, dl);
  }
}

// A row (step 1) or column (step S) of an S x S matrix (P, dS) as column_sum's weight w(t).
struct Strip {
  const float* at;
  std::int64_t step;
  PARITY_HD float operator()(std::int64_t t) const { return at[t * step]; }
};

// s + the sum over t in [0, n) of w(t) x(t0 + t, d), added in ascending t: dq's sum over keys
// (w = dS's row), dk's and dv's over queries (w = a column of dS or P).
template <class W, class X>
PARITY_HD float column_sum(const W& w, const X& x, std::int64_t t0, std::int64_t n, std::int64_t d, float s = 0.0f) {
  for (std::int64_t t = 0; t < n; ++t) s = s + w(t) * x(t0 + t, d);
  return s;
}

// dk's or dv's sum for one key of a key/value head: over its G query heads g ascending, each
// one's column_sum(w(g), x(g), t0, n, d) continuing the same accumulator from 0.0f.
template <class WG, class XG>
PARITY_HD float group_column_sum(std::int64_t G, const WG& w, const XG& x, std::int64_t t0, std::int64_t n,
                                 std::int64_t d) {
  float s = 0.0f;
  for (std::int64_t g = 0; g < G; ++g) s = column_sum(w(g), x(g), t0, n, d, s);
  return s;
}

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// What the host twins of sdpa and sdpa_backward share: a call's heads and parameters, and one head
// of one batch element of an operand (its float32 values, kernels::HostCall's) as a loader.
struct AttentionCall {
  Heads hd;
  std::int64_t B;
  bool causal;
  float scale;

  // The call's tensors are [B, H, S, D] and [B, Hkv, S, D] whatever their memory order (the
  // layout), so hd indexes their logical values in layout 0.
  explicit AttentionCall(const OpCall& c)
      : hd{.S = c.extent("S"),
           .H = c.extent("Hkv") * c.extent("G"),
           .D = c.extent("D"),
           .G = c.extent("G"),
           .bshd = false},
        B(c.extent("B")),
        causal(c.param("causal") != 0),
        scale(static_cast<float>(c.param("scale"))) {
    for (const auto& [name, t] : c.inputs)
      if (t.shape().size() != 4)
        throw std::invalid_argument("sdpa host kernel: " + name + " is not [B, H, S, D] (op_view.hpp hands those)");
  }
  // The elements of one batch element of a query-head and of a key/value-head operand.
  std::int64_t row_elements() const { return hd.S * hd.H * hd.D; }
  std::int64_t kv_row_elements() const { return hd.S * hd.Hkv() * hd.D; }
};

// One head of batch element b of an operand held as floats: (s, d) -> float.
struct HostHead {
  const float* row;
  Heads hd;  // the operand's heads
  std::int64_t h;
  float operator()(std::int64_t s, std::int64_t d) const { return row[hd.col(s, h, d)]; }
};

// Query head h of a [B, H, S, D] operand (q, do).
inline HostHead query_head(const std::vector<float>& x, const AttentionCall& c, std::int64_t b, std::int64_t h) {
  return {x.data() + b * c.row_elements(), c.hd, h};
}
// The head of a [B, Hkv, S, D] operand (k, v) that query head h reads.
inline HostHead kv_head(const std::vector<float>& x, const AttentionCall& c, std::int64_t b, std::int64_t h) {
  return {x.data() + b * c.kv_row_elements(), c.hd.kv(), c.hd.kv_head(h)};
}

// f(b, h) for every h < heads of every batch element (the query heads H, or the key/value heads
// Hkv), each on one thread of parity's pool (core/thread_pool.hpp). A head's outputs are a
// function of that head alone, computed in its own fixed order, so the bits do not depend on the
// thread count; f writes only its head's elements of shared outputs. At most thread_count() heads
// hold their scratch at once (the backward's P and dS: 2 G S^2 floats a key/value head, 145 MB at
// the gate's 4253 tokens and G = 1).
template <class F>
void for_each_head(const AttentionCall& c, std::int64_t heads, const F& f) {
  parallel_chunks(static_cast<std::size_t>(c.B * heads), [&](std::size_t bh) {
    const auto i = static_cast<std::int64_t>(bh);
    f(i / heads, i % heads);
  });
}

// What one query row's computation gets: the loaders of its query head and of the key/value head
// that one reads, the row, its visible keys, the batch's B*H (a plan may depend on it), and
// scratch for n probabilities and D outputs; for sdpa_varlen, the packed batch's total tokens
// (sdpa: 0).
struct RowCall {
  HostHead q, k, v;
  std::int64_t i, n, D, BH;
  float scale;
  float* p;
  float* o;
  std::int64_t tokens = 0;
};

// The host twin of parity's attention forward kernel: the arithmetic above, one query
// row at a time, on the CPU, the heads spread over threads (for_each_head). `Policy` (CUTLASS style) lets the mismatch
// probes (sdpa_op.cpp) be real alternative implementations of single steps; Standard is the kernel's own.
struct Standard {
  // The keys query row i of query head h sees (hd: the call's heads).
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t /*h*/) {
    return visible_keys(causal, i, hd.S);
  }
  // Writes o[0..D) and returns the logsumexp.
  static float row(const RowCall& c) {
    const Partial r = attend(c.q, c.k, c.v, c.i, 0, c.n, c.D, c.scale, c.p, c.o);
    normalise(c.o, c.D, r.l);
    return logsumexp(r);
  }
};

// A row's keys (n >= 2) in two halves whose partial results are combined (flash-decoding's
// split-KV; the probes' and the other plans'). `Rescale` false: the partial
// sums are added without bringing them to the common maximum.
template <bool Rescale>
inline float split_keys_row(const RowCall& c) {
  const std::int64_t half = c.n / 2;
  std::vector<float> o2(static_cast<std::size_t>(c.D));
  const Partial a = attend(c.q, c.k, c.v, c.i, 0, half, c.D, c.scale, c.p, c.o);
  const Partial b = attend(c.q, c.k, c.v, c.i, half, c.n - half, c.D, c.scale, c.p + half, o2.data());
  const float m = std::max(a.m, b.m);
  const float wa = Rescale ? detmath::exp_f32(a.m - m) : 1.0f, wb = Rescale ? detmath::exp_f32(b.m - m) : 1.0f;
  const float l = a.l * wa + b.l * wb;
  for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = (c.o[d] * wa + o2[static_cast<std::size_t>(d)] * wb) / l;
  return logsumexp({m, l});
}

template <class Policy>
class SdpaHost : public kernels::HostTwin<Sdpa, &kernel_arithmetic> {
 public:
  void rows(kernels::HostCall& call) const override {
    const AttentionCall c(call.call());
    const std::vector<float>&q = call.in("q"), &k = call.in("k"), &v = call.in("v");
    Tensor &o = call.out("o"), &lse = call.out("lse");
    for_each_head(c, c.hd.H, [&](std::int64_t b, std::int64_t h) {
      std::vector<float> p(static_cast<std::size_t>(c.hd.S)), out(static_cast<std::size_t>(c.hd.D));
      for (std::int64_t i = 0; i < c.hd.S; ++i) {
        const RowCall r{query_head(q, c, b, h),
                        kv_head(k, c, b, h),
                        kv_head(v, c, b, h),
                        i,
                        Policy::keys(c.causal, i, c.hd, h),
                        c.hd.D,
                        c.B * c.hd.H,
                        c.scale,
                        p.data(),
                        out.data()};
        kernels::store(lse, b * c.hd.H * c.hd.S + c.hd.lse_col(i, h), Policy::row(r));
        for (std::int64_t d = 0; d < c.hd.D; ++d) kernels::store(o, b * c.row_elements() + c.hd.col(i, h, d), out[d]);
      }
    });
  }
};

// The host twin of parity's attention backward kernel: the arithmetic above in the CUDA
// kernel's order (sdpa.cu): per key/value head, each of its G query heads' rows (softmax row, P,
// dS and dq); then each key's dk and dv, summed over the G query heads in group_column_sum's
// order; the key/value heads spread over threads (for_each_head). `Policy` lets the mismatch probes
// (sdpa_op.cpp) change single steps; BackwardStandard is the kernel's own.
struct BackwardStandard {
  using Grad = SoftmaxGradient;
  // The keys query row i of query head h sees, and the first query of query head g of a
  // key/value head that sees key j (the queries first .. S - 1 do); hd: the call's heads.
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t /*h*/) {
    return visible_keys(causal, i, hd.S);
  }
  static std::int64_t first_query(bool causal, std::int64_t j, const Heads& /*hd*/, std::int64_t /*g*/) {
    return causal ? j : 0;
  }
  // dq's sum over query row i's n keys; BH is the batch's B*H.
  static float dq_sum(const Strip& ds, const HostHead& k, std::int64_t n, std::int64_t d, std::int64_t /*BH*/) {
    return column_sum(ds, k, 0, n, d);
  }
  // s + dv's sum over the queries t0 .. t0 + n - 1 of one query head (group_column_sum's step);
  // `bf16` when dv is stored as bf16.
  static float dv_sum(const Strip& P, const HostHead& dout, std::int64_t t0, std::int64_t n, std::int64_t d,
                      bool /*bf16*/, float s) {
    return column_sum(P, dout, t0, n, d, s);
  }
};

template <class Policy>
class SdpaBackwardHost : public kernels::HostTwin<SdpaBackward, &kernel_arithmetic> {
 public:
  void rows(kernels::HostCall& call) const override {
    const AttentionCall c(call.call());
    const std::int64_t S = c.hd.S, D = c.hd.D, G = c.hd.G;
    const std::vector<float>&q = call.in("q"), &k = call.in("k"), &v = call.in("v"), &g = call.in("do");
    Tensor &dq = call.out("dq"), &dk = call.out("dk"), &dv = call.out("dv");
    // One key/value head kvh a task: its G query heads' rows (P, dS [G, S, S], dq), then its keys.
    for_each_head(c, c.hd.Hkv(), [&](std::int64_t b, std::int64_t kvh) {
      std::vector<float> P(static_cast<std::size_t>(G * S * S)), dS(P.size()), acc(static_cast<std::size_t>(D));
      const auto head = [&](std::int64_t gi) { return kvh * G + gi; };
      const HostHead hk = kv_head(k, c, b, head(0)), hv = kv_head(v, c, b, head(0));
      for (std::int64_t gi = 0; gi < G; ++gi) {
        const std::int64_t h = head(gi);
        const HostHead hq = query_head(q, c, b, h), hg = query_head(g, c, b, h);
        for (std::int64_t i = 0; i < S; ++i) {
          const std::int64_t n = Policy::keys(c.causal, i, c.hd, h);
          float* p = P.data() + (gi * S + i) * S;
          float* ds = dS.data() + (gi * S + i) * S;
          const Partial r = attend(hq, hk, hv, i, 0, n, D, c.scale, p, acc.data());
          softmax_grad(hv, hg, i, n, D, r, p, acc.data(), ds, typename Policy::Grad{});
          for (std::int64_t d = 0; d < D; ++d)
            kernels::store(dq, b * c.row_elements() + c.hd.col(i, h, d),
                           Policy::dq_sum({ds, 1}, hk, n, d, c.B * c.hd.H) * c.scale);
        }
      }
      for (std::int64_t j = 0; j < S; ++j)
        for (std::int64_t d = 0; d < D; ++d) {
          float sk = 0.0f, sv = 0.0f;  // group_column_sum's order, with the policy's dv step
          for (std::int64_t gi = 0; gi < G; ++gi) {
            const std::int64_t first = Policy::first_query(c.causal, j, c.hd, gi), at = (gi * S + first) * S + j;
            sk = column_sum(Strip{dS.data() + at, S}, query_head(q, c, b, head(gi)), first, S - first, d, sk);
            sv = Policy::dv_sum({P.data() + at, S}, query_head(g, c, b, head(gi)), first, S - first, d,
                                dv.dtype() == DType::bf16, sv);
          }
          const std::int64_t at = b * c.kv_row_elements() + c.hd.kv().col(j, kvh, d);
          kernels::store(dk, at, sk * c.scale);
          kernels::store(dv, at, sv);
        }
    });
  }
};

// The host twin of parity's varlen attention kernel (sdpa_varlen_op.hpp): sdpa's host twin
// (SdpaHost) over packed operands, each sequence b's query rows in this file's
// arithmetic over its own L_b keys, the (b, h) heads spread over threads. A sequence's heads are
// read in place in the packed tensors: position s of sequence b, head h, element d at
// ((cu_seqlens[b] + s)*H + h)*D + d, which is layout 1's column of a sequence starting at
// cu_seqlens[b] (Heads, bshd). Its bits are sdpa's host twin's for each sequence alone
// (B = 1, S = L_b, layout 1), whatever the batch. `Policy`: VarlenStandard, or a probe's change.
struct VarlenStandard {
  // The keys query i of a sequence of `length` tokens sees; `max_length` is the call's max_seqlen
  // and `room` the packed tokens from the sequence's first to the batch's last (what a kernel can
  // read).
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t length, std::int64_t /*max_length*/,
                           std::int64_t /*room*/) {
    return visible_keys(causal, i, length);
  }
  static float row(const RowCall& c) { return Standard::row(c); }
};

template <class Policy>
class SdpaVarlenHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t B = call.extent("B"), Hkv = call.extent("Hkv"), G = call.extent("G"), H = Hkv * G,
                       D = call.extent("D"), S = call.extent("S");
    const std::vector<std::int64_t> cu = call.cu_seqlens("S");
    const std::int64_t total = cu.back();
    for (const auto& [name, heads] : {std::pair{"q", H}, std::pair{"k", Hkv}, std::pair{"v", Hkv}})
      if (call.input(name).shape() != std::vector<std::int64_t>{total, heads, D})
        throw std::invalid_argument(std::string("sdpa_varlen host kernel: ") + name + " is not packed [total, " +
                                    (heads == H ? "H" : "Hkv") + ", D] (op_view.hpp hands those)");
    const bool causal = call.param("causal") != 0;
    const auto scale = static_cast<float>(call.param("scale"));
    const DType out = call.output_dtype("o");
    const std::vector<float> q = kernels::host_floats(call.input("q")), k = kernels::host_floats(call.input("k")),
                             v = kernels::host_floats(call.input("v"));
    Tensor o = Tensor::zeros(out, {total, H, D}), lse = Tensor::zeros(out, {total, H});
    parallel_chunks(static_cast<std::size_t>(B * H), [&](std::size_t bh) {
      const std::int64_t b = static_cast<std::int64_t>(bh) / H, h = static_cast<std::int64_t>(bh) % H;
      const std::int64_t length = cu[b + 1] - cu[b], room = total - cu[b];
      const Heads hd{.S = length, .H = H, .D = D, .G = G, .bshd = true};
      std::vector<float> p(static_cast<std::size_t>(room)), acc(static_cast<std::size_t>(D));
      for (std::int64_t i = 0; i < length; ++i) {
        const RowCall r{HostHead{q.data() + cu[b] * H * D, hd, h},
                        HostHead{k.data() + cu[b] * Hkv * D, hd.kv(), hd.kv_head(h)},
                        HostHead{v.data() + cu[b] * Hkv * D, hd.kv(), hd.kv_head(h)},
                        i,
                        Policy::keys(causal, i, length, S, room),
                        D,
                        B * H,
                        scale,
                        p.data(),
                        acc.data(),
                        total};
        kernels::store(lse, (cu[b] + i) * H + h, Policy::row(r));
        for (std::int64_t d = 0; d < D; ++d) kernels::store(o, ((cu[b] + i) * H + h) * D + d, acc[d]);
      }
    });
    return {{"o", std::move(o)}, {"lse", std::move(lse)}};
  }
};

#endif  // !__CUDACC__

// Subjects whose outputs equal their host twins' (SdpaHost<Standard>,
// SdpaBackwardHost<BackwardStandard>) bit for bit for every input, layout and shape: one thread
// per query row (the backward: then one per key), every operation this file's in the twins'
// order. Inputs may have any strides and offset; outputs are contiguous. Run synchronously on
// the current device; throw std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
std::unique_ptr<OpSubject> make_cuda_backward_kernel();
// sdpa_varlen's CUDA kernel (sdpa_varlen.cu), bit for bit SdpaVarlenHost<VarlenStandard>'s: one
// thread per (packed token, query head), packed inputs of any strides, contiguous packed outputs.
std::unique_ptr<OpSubject> make_cuda_varlen_kernel();

}  // namespace parity::ops::sdpa
