// Mismatch probes of sdpa_backward: the backward kernel with one realistic step changed, each
// of which the generic properties must catch (parity probes sdpa_backward).
#include <algorithm>

#include <parity/core/bf16.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_subjects.hpp>

namespace parity::ops::sdpa {
namespace {

// dS = P dP: the softmax gradient without its rowsum(dO o O) term.
struct BackwardNoRowsum : BackwardStandard {
  struct Grad {
    float operator()(float P, float dp, float /*dl*/) const { return P * dp; }
  };
};

// dv accumulated in bf16 when it is stored as bf16 (a bf16 accumulator register).
struct BackwardDvBf16Accumulate : BackwardStandard {
  static float dv_sum(const Strip& P, const HostHead& dout, std::int64_t t0, std::int64_t n, std::int64_t d,
                      bool bf16) {
    if (!bf16) return BackwardStandard::dv_sum(P, dout, t0, n, d, bf16);
    float s = 0.0f;
    for (std::int64_t t = 0; t < n; ++t) s = round_through_bf16(s + P(t) * dout(t0 + t, d));
    return s;
  }
};

// The causal mask one key late in the recomputed forward and in dk, dv.
struct BackwardCausalOffByOne : BackwardStandard {
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t S) { return causal ? std::min(i + 2, S) : S; }
  static std::int64_t first_query(bool causal, std::int64_t j) { return causal ? std::max<std::int64_t>(j - 1, 0) : 0; }
};

// For few heads in the batch (B*H < 8) and 128 keys or more, dq's sum over keys in two halves
// added at the end (a split-KV plan chosen from the batch).
struct BackwardSplitKeys : BackwardStandard {
  static float dq_sum(const Strip& ds, const HostHead& k, std::int64_t n, std::int64_t d, std::int64_t BH) {
    if (BH >= 8 || n < 128) return column_sum(ds, k, 0, n, d);
    const std::int64_t half = n / 2;
    return column_sum(ds, k, 0, half, d) + column_sum(Strip{ds.at + half, 1}, k, half, n - half, d);
  }
};

}  // namespace

void register_backward_probes() {
  const HostProbes<SdpaBackwardHost> probes{"sdpa_backward"};
  probes.add<BackwardNoRowsum>("probe-no-rowsum", "dS = P dP: the softmax gradient without rowsum(dO o O)");
  probes.add<BackwardDvBf16Accumulate>("probe-dv-bf16-accumulate", "dv accumulated in bf16 where it is stored as bf16");
  probes.add<BackwardCausalOffByOne>("probe-causal-off-by-one",
                                     "causal mask one key late in the recomputed forward, dk and dv");
  probes.add<BackwardSplitKeys>("probe-split-keys", "B*H < 8 and S >= 128: dq's sum over keys in two halves");
}

}  // namespace parity::ops::sdpa
