// The sdpa_varlen op as parity ships it: its declaration (sdpa_varlen_op.hpp) with parity's host
// twin (sdpa_varlen_host.hpp), LibTorch's reference (sdpa_torch.cpp), the mismatch probes below
// and its CUDA kernel (sdpa_varlen.cu).
#include <algorithm>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/sdpa/sdpa_subjects.hpp>
#include <parity/ops/sdpa/sdpa_varlen_host.hpp>
#include <parity/ops/sdpa/sdpa_varlen_op.hpp>

namespace parity::ops::sdpa {
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
       .torch =
           torch_subject("LibTorch's attention forward on the CPU, one sequence at a time (" + torch_kernel() + ")",
                         &make_torch_cpu_varlen),
       .register_probes = &register_varlen_probes});
}

}  // namespace parity::ops::sdpa
