#pragma once
// The host twin of parity's attention forward kernel: sdpa_arith.cuh's arithmetic, one query
// row at a time, on the CPU, the heads spread over threads (for_each_head). `Policy` (CUTLASS style) lets the mismatch
// probes (sdpa_op.cpp) be real alternative implementations of single steps; Standard is the kernel's own.
#include <algorithm>
#include <memory>
#include <vector>

#include <parity/ops/sdpa/sdpa_arith.cuh>
#include <parity/ops/sdpa/sdpa_host_io.hpp>

namespace parity::ops::sdpa {

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
class SdpaHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const HostCall c(call, "o");
    const std::vector<float> q = floats(call.input("q")), k = floats(call.input("k")), v = floats(call.input("v"));
    Tensor o = Tensor::zeros(c.out, {c.B, c.hd.H, c.hd.S, c.hd.D}), lse = Tensor::zeros(c.out, {c.B, c.hd.H, c.hd.S});
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
        store(lse, b * c.hd.H * c.hd.S + c.hd.lse_col(i, h), Policy::row(r));
        for (std::int64_t d = 0; d < c.hd.D; ++d) store(o, b * c.row_elements() + c.hd.col(i, h, d), out[d]);
      }
    });
    return {{"o", std::move(o)}, {"lse", std::move(lse)}};
  }
};

}  // namespace parity::ops::sdpa
