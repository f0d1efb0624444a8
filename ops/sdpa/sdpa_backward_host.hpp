#pragma once
// The host twin of parity's attention backward kernel: sdpa_arith.cuh's arithmetic in the CUDA
// kernel's order (sdpa.cu): per key/value head, each of its G query heads' rows (softmax row, P,
// dS and dq); then each key's dk and dv, summed over the G query heads in group_column_sum's
// order; the key/value heads spread over threads (for_each_head). `Policy` lets the mismatch probes
// (sdpa_op.cpp) change single steps; BackwardStandard is the kernel's own.
#include <memory>

#include <parity/ops/sdpa/sdpa_host.hpp>

namespace parity::ops::sdpa {

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
class SdpaBackwardHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const HostCall c(call, "dq");
    const std::int64_t S = c.hd.S, D = c.hd.D, G = c.hd.G;
    const std::vector<float> q = floats(call.input("q")), k = floats(call.input("k")), v = floats(call.input("v")),
                             g = floats(call.input("do"));
    Tensor dq = Tensor::zeros(c.out, {c.B, c.hd.H, S, D}), dk = Tensor::zeros(c.out, {c.B, c.hd.Hkv(), S, D}), dv = dk;
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
            store(dq, b * c.row_elements() + c.hd.col(i, h, d),
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
                                c.out == DType::bf16, sv);
          }
          const std::int64_t at = b * c.kv_row_elements() + c.hd.kv().col(j, kvh, d);
          store(dk, at, sk * c.scale);
          store(dv, at, sv);
        }
    });
    return {{"dq", std::move(dq)}, {"dk", std::move(dk)}, {"dv", std::move(dv)}};
  }
};

}  // namespace parity::ops::sdpa
