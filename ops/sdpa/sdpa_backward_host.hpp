#pragma once
// The host twin of parity's attention backward kernel: sdpa_arith.cuh's arithmetic in the CUDA
// kernel's order (sdpa.cu): per head, each query row's softmax row, P, dS and dq; then each
// key's dk and dv; the heads spread over threads (for_each_head). `Policy` lets the mismatch probes
// (sdpa_op.cpp) change single steps; BackwardStandard is the kernel's own.
#include <memory>

#include <parity/ops/sdpa/sdpa_host.hpp>

namespace parity::ops::sdpa {

struct BackwardStandard {
  using Grad = SoftmaxGradient;
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t S) { return visible_keys(causal, i, S); }
  // The first query that sees key j (the queries first .. S - 1 do).
  static std::int64_t first_query(bool causal, std::int64_t j) { return causal ? j : 0; }
  // dq's sum over query row i's n keys; BH is the batch's B*H.
  static float dq_sum(const Strip& ds, const HostHead& k, std::int64_t n, std::int64_t d, std::int64_t /*BH*/) {
    return column_sum(ds, k, 0, n, d);
  }
  // dv's sum over the queries t0 .. t0 + n - 1; `bf16` when dv is stored as bf16.
  static float dv_sum(const Strip& P, const HostHead& dout, std::int64_t t0, std::int64_t n, std::int64_t d,
                      bool /*bf16*/) {
    return column_sum(P, dout, t0, n, d);
  }
};

template <class Policy>
class SdpaBackwardHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const HostCall c(call, "dq");
    const std::int64_t S = c.hd.S, D = c.hd.D;
    const std::vector<float> q = floats(call.input("q")), k = floats(call.input("k")), v = floats(call.input("v")),
                             g = floats(call.input("do"));
    Tensor dq = Tensor::zeros(c.out, {c.B, c.hd.H, S, D}), dk = dq, dv = dq;
    for_each_head(c, [&](std::int64_t b, std::int64_t h) {
      std::vector<float> P(static_cast<std::size_t>(S * S)), dS(P.size()), acc(static_cast<std::size_t>(D));
      const HostHead hq(q, c, b, h), hk(k, c, b, h), hv(v, c, b, h), hg(g, c, b, h);
      const auto put = [&](Tensor& t, std::int64_t s, std::int64_t d, float x) {
        store(t, b * c.row_elements() + c.hd.col(s, h, d), x);
      };
      for (std::int64_t i = 0; i < S; ++i) {
        const std::int64_t n = Policy::keys(c.causal, i, S);
        float* p = P.data() + i * S;
        float* ds = dS.data() + i * S;
        const Partial r = attend(hq, hk, hv, i, 0, n, D, c.scale, p, acc.data());
        softmax_grad(hv, hg, i, n, D, r, p, acc.data(), ds, typename Policy::Grad{});
        for (std::int64_t d = 0; d < D; ++d) put(dq, i, d, Policy::dq_sum({ds, 1}, hk, n, d, c.B * c.hd.H) * c.scale);
      }
      for (std::int64_t j = 0; j < S; ++j) {
        const std::int64_t first = Policy::first_query(c.causal, j);
        for (std::int64_t d = 0; d < D; ++d) {
          put(dk, j, d, column_sum(Strip{dS.data() + first * S + j, S}, hq, first, S - first, d) * c.scale);
          put(dv, j, d, Policy::dv_sum({P.data() + first * S + j, S}, hg, first, S - first, d, c.out == DType::bf16));
        }
      }
    });
    return {{"dq", std::move(dq)}, {"dk", std::move(dk)}, {"dv", std::move(dv)}};
  }
};

}  // namespace parity::ops::sdpa
