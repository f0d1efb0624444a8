// The sdpa, sdpa_backward and sdpa_varlen ops as parity ships them: their declarations (sdpa_op.hpp,
// sdpa_backward_op.hpp, sdpa_varlen_op.hpp) with parity's kernels (the host twins and the CUDA factories,
// sdpa_kernel.cuh), LibTorch's references (sdpa_torch.cpp) and the mismatch probes below.
#include <algorithm>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_kernel.cuh>
#include <parity/ops/sdpa/sdpa_op.hpp>
#include <parity/ops/sdpa/sdpa_varlen_op.hpp>

namespace parity::ops::sdpa {

// Mismatch probes of sdpa (HostProbes, framework/op_subject.hpp).
namespace {

// exp(s) / sum exp(s) without the maximum subtracted: overflows once a logit passes ~88.
struct NoMax : Standard {
  static float row(const RowCall& c) {
    for (std::int64_t j = 0; j < c.n; ++j) c.p[j] = score(c.q, c.k, c.i, j, c.D, c.scale);
    const float l = exp_sum(c.p, c.n, 0.0f);
    for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = weighted(c.p, c.v, 0, c.n, d);
    normalise(c.o, c.D, l);
    return logsumexp({0.0f, l});
  }
};

// The causal mask one key late: query i also sees key i + 1.
struct CausalOffByOne : Standard {
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t /*h*/) {
    return causal ? std::min(i + 2, hd.S) : hd.S;
  }
};

// A packed grouped-query plan (modelled on FlashAttention-3's PackGQA, which packs a key/value
// head's query heads into its query tiles; FA3 decides by tile efficiency, this plan by a fixed
// threshold), chosen where a key/value head's S*G query rows fill a 64-row tile
// (kPackedRowsFrom): the G query heads of a key/value head are packed as the rows r = i*G + g of
// one query sequence (g = h mod G), and the causal mask compares a key with the packed row r
// instead of the query position i = r / G. Right for G = 1 and without a mask.
constexpr std::int64_t kPackedRowsFrom = 64;
bool packs_rows(bool causal, const Heads& hd) { return causal && hd.S * hd.G >= kPackedRowsFrom; }

std::int64_t packed_row_keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t h) {
  if (!packs_rows(causal, hd)) return visible_keys(causal, i, hd.S);
  return std::min(i * hd.G + h % hd.G + 1, hd.S);
}
struct PackGqaCausalRow : Standard {
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t h) {
    return packed_row_keys(causal, i, hd, h);
  }
};

// The scale applied to the output instead of the logits: softmax(q k^T) v * scale.
struct ScaleAfterSoftmax : Standard {
  static float row(const RowCall& c) {
    const Partial r = attend(c.q, c.k, c.v, c.i, 0, c.n, c.D, 1.0f, c.p, c.o);
    normalise(c.o, c.D, r.l);
    for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = c.o[d] * c.scale;
    return logsumexp(r);
  }
};

// Flash-decoding: for few heads in the batch (B*H < 8) and 128 keys or more, the keys split in
// two halves (split_keys_row), to fill the device.
template <bool Rescale>
struct SplitKeys : Standard {
  static float row(const RowCall& c) { return c.BH >= 8 || c.n < 128 ? Standard::row(c) : split_keys_row<Rescale>(c); }
};

// parity's kernel with another plan (BuiltinSubjects::other_plan): every row of two keys or more
// in two rescaled halves (flash-decoding); as accurate, other bits.
struct SplitEveryRow : Standard {
  static float row(const RowCall& c) { return c.n < 2 ? Standard::row(c) : split_keys_row<true>(c); }
};

void register_probes() {
  const HostProbes<SdpaHost> probes{"sdpa"};
  probes.add<NoMax>("probe-no-max", "exp(s) / sum exp(s): the row maximum not subtracted");
  probes.add<CausalOffByOne>("probe-causal-off-by-one", "causal mask one key late: query i sees key i + 1");
  probes.add<ScaleAfterSoftmax>("probe-scale-after-softmax", "softmax(q k^T) v * scale: the scale after the softmax");
  probes.add<SplitKeys<true>>("probe-split-keys",
                              "B*H < 8 and S >= 128: keys in two halves, combined (flash-decoding)");
  probes.add<SplitKeys<false>>("probe-split-no-rescale",
                               "B*H < 8 and S >= 128: two key halves added without rescaling");
  probes.add<PackGqaCausalRow>("probe-pack-gqa-causal",
                               "S*G >= 64: query heads packed as rows i*G + g, the causal mask on the packed row");
}

}  // namespace

// Mismatch probes of sdpa_backward (HostProbes, framework/op_subject.hpp).
namespace {

// dS = P dP: the softmax gradient without its rowsum(dO o O) term.
struct BackwardNoRowsum : BackwardStandard {
  struct Grad {
    float operator()(float P, float dp, float /*dl*/) const { return P * dp; }
  };
};

// dv accumulated in bf16 when it is stored as bf16 (a bf16 accumulator register).
struct BackwardDvBf16Accumulate : BackwardStandard {
  static float dv_sum(const Strip& P, const HostHead& dout, std::int64_t t0, std::int64_t n, std::int64_t d, bool bf16,
                      float s) {
    if (!bf16) return BackwardStandard::dv_sum(P, dout, t0, n, d, bf16, s);
    for (std::int64_t t = 0; t < n; ++t) s = round_through_bf16(s + P(t) * dout(t0 + t, d));
    return s;
  }
};

// The causal mask one key late in the recomputed forward and in dk, dv.
struct BackwardCausalOffByOne : BackwardStandard {
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t /*h*/) {
    return causal ? std::min(i + 2, hd.S) : hd.S;
  }
  static std::int64_t first_query(bool causal, std::int64_t j, const Heads& /*hd*/, std::int64_t /*g*/) {
    return causal ? std::max<std::int64_t>(j - 1, 0) : 0;
  }
};

// sdpa's probe-pack-gqa-causal in the backward: the packed rows' mask in the recomputed forward
// and in dk and dv, where query i of head g sees key j when i*G + g >= j.
struct BackwardPackGqaCausalRow : BackwardStandard {
  static std::int64_t keys(bool causal, std::int64_t i, const Heads& hd, std::int64_t h) {
    return packed_row_keys(causal, i, hd, h);
  }
  static std::int64_t first_query(bool causal, std::int64_t j, const Heads& hd, std::int64_t g) {
    if (!packs_rows(causal, hd)) return BackwardStandard::first_query(causal, j, hd, g);
    return std::max<std::int64_t>((j - g + hd.G - 1) / hd.G, 0);  // the least i with i*G + g >= j
  }
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

// The backward kernel with another plan: dq's sum over every row's keys in two halves.
struct BackwardSplitEveryRow : BackwardStandard {
  static float dq_sum(const Strip& ds, const HostHead& k, std::int64_t n, std::int64_t d, std::int64_t /*BH*/) {
    if (n < 2) return column_sum(ds, k, 0, n, d);
    const std::int64_t half = n / 2;
    return column_sum(ds, k, 0, half, d) + column_sum(Strip{ds.at + half, 1}, k, half, n - half, d);
  }
};

void register_backward_probes() {
  const HostProbes<SdpaBackwardHost> probes{"sdpa_backward"};
  probes.add<BackwardNoRowsum>("probe-no-rowsum", "dS = P dP: the softmax gradient without rowsum(dO o O)");
  probes.add<BackwardDvBf16Accumulate>("probe-dv-bf16-accumulate", "dv accumulated in bf16 where it is stored as bf16");
  probes.add<BackwardCausalOffByOne>("probe-causal-off-by-one",
                                     "causal mask one key late in the recomputed forward, dk and dv");
  probes.add<BackwardSplitKeys>("probe-split-keys", "B*H < 8 and S >= 128: dq's sum over keys in two halves");
  probes.add<BackwardPackGqaCausalRow>(
      "probe-pack-gqa-causal", "S*G >= 64: query heads packed as rows i*G + g, the causal mask on the packed row");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<Sdpa>(
      {.kernel = "parity's deterministic attention forward kernel",
       .make_host = &make_op_subject<SdpaHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(
           torch_subject("LibTorch's attention forward on the CPU (" + torch_kernel() + ")", &make_torch_cpu)),
       .register_probes = &register_probes,
       .other_plan = &make_op_subject<SdpaHost<SplitEveryRow>>});
}

const gen::Family& backward_family() {
  return shipped_op_family<SdpaBackward>(
      {.kernel = "parity's deterministic attention backward kernel",
       .make_host = &make_op_subject<SdpaBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch = PARITY_OP_TORCH(torch_subject("LibTorch's attention backward on the CPU (" + torch_kernel() + ")",
                                              &make_torch_cpu_backward)),
       .register_probes = &register_backward_probes,
       .other_plan = &make_op_subject<SdpaBackwardHost<BackwardSplitEveryRow>>});
}

// Mismatch probes of sdpa_varlen.
namespace {

// A split-KV plan chosen from the batch's packed total (sum_b L_b, what a varlen kernel's grid is
// sized from): from kSplitFromTokens tokens on, every query row of two keys or more sums its keys
// in two rescaled halves (split_keys_row). A correct kernel alone; batch invariance is what it
// breaks, which only the batch properties can see (rows_independent, batch_vs_batch, rows_padded,
// rows_chunked: each changes the total around a row).
constexpr std::int64_t kSplitFromTokens = 256;
struct SplitFromPackedTotal : VarlenStandard {
  static float row(const RowCall& c) {
    return c.tokens >= kSplitFromTokens && c.n >= 2 ? split_keys_row<true>(c) : Standard::row(c);
  }
};

// The mask by the padded length instead of the sequence's own: a non-causal query sees max_seqlen
// keys from its sequence's start, reading into the next sequences' keys (as far as the packed batch
// goes). Right where every sequence is max_seqlen long, or for the batch's last.
struct KeysPastLength : VarlenStandard {
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t length, std::int64_t max_length,
                           std::int64_t room) {
    return causal ? visible_keys(causal, i, length) : std::min(max_length, room);
  }
};

void register_varlen_probes() {
  const HostProbes<SdpaVarlenHost> probes{"sdpa_varlen"};
  probes.add<SplitFromPackedTotal>("probe-split-from-packed-total",
                                   "a packed total of >= 256 tokens: every query's keys in two rescaled halves");
  probes.add<KeysPastLength>("probe-keys-past-length",
                             "non-causal queries see max_seqlen keys: the next sequences' keys past their own");
}

}  // namespace

const gen::Family& varlen_family() {
  return shipped_op_family<SdpaVarlen>(
      {.kernel = "parity's deterministic varlen attention forward kernel",
       .make_host = &make_op_subject<SdpaVarlenHost<VarlenStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_varlen_kernel),
       .torch = PARITY_OP_TORCH(
           torch_subject("LibTorch's attention forward on the CPU, one sequence at a time (" + torch_kernel() + ")",
                         &make_torch_cpu_varlen)),
       .register_probes = &register_varlen_probes});
}

}  // namespace parity::ops::sdpa
