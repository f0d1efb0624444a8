// The linear op as parity ships it: its declaration (linear_op.hpp) with parity's kernel (the host twin
// and the CUDA factory, linear_kernel.cuh), LibTorch's reference and the mismatch probes below.
#include <parity/core/bf16.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/linear/linear_kernel.cuh>
#include <parity/ops/linear/linear_op.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::linear {

// Mismatch probes of linear (HostProbes, framework/op_subject.hpp).
namespace {

// From 128 rows on, long reductions (K >= 1024) split K in 4 slices whose partial sums are added
// in order: a split-K plan chosen from the batch's row count, as GEMM heuristics do.
struct SplitK : Standard {
  static float dot(const float* x, const float* w, std::int64_t K, std::int64_t T) {
    if (T < 128 || K < 1024) return Standard::dot(x, w, K, T);
    float total = 0.0f;
    const std::int64_t slice = (K + 3) / 4;
    for (std::int64_t begin = 0; begin < K; begin += slice)
      total = total + Standard::dot(x + begin, w + begin, std::min(slice, K - begin), T);
    return total;
  }
};

// Vectorised loads of 8 elements with the remainder loop missing: the last K mod 8 terms dropped.
struct DropKTail : Standard {
  static float dot(const float* x, const float* w, std::int64_t K, std::int64_t T) {
    return Standard::dot(x, w, K - K % 8, T);
  }
};

// The GEMM stores its result as bf16 and a separate kernel adds the bias: the accumulator
// rounded to bf16 before the bias is added (then rounded again to the output dtype).
struct Bf16BeforeBias : Standard {
  static float epilogue(float acc, bool has_bias, float b) { return has_bias ? round_through_bf16(acc) + b : acc; }
};

// parity's kernel with another plan (BuiltinSubjects::other_plan): each dot product over K
// reversed, in the same lanes; as accurate, other bits.
struct ReversedDot : Standard {
  static float dot(const float* x, const float* w, std::int64_t K, std::int64_t T) {
    return Standard::dot(kernels::reversed(x, K).data(), kernels::reversed(w, K).data(), K, T);
  }
};

void register_probes() {
  const HostProbes<LinearHost> probes{"linear"};
  probes.add<SplitK>("probe-split-k", "from T >= 128 rows, K >= 1024 summed as 4 slices added in order");
  probes.add<DropKTail>("probe-k-tail", "K in vectors of 8 with the remainder dropped (K not a multiple of 8)");
  probes.add<Bf16BeforeBias>("probe-bf16-before-bias", "the accumulator rounded to bf16 before the bias is added");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<Linear>(
      {.kernel = "parity's deterministic linear kernel",
       .make_host = &make_op_subject<LinearHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_op_reference(
           Linear::declaration(), {.schema = "aten::linear", .args = {{"x", "input"}, {"W", "weight"}, {"b", "bias"}}},
           "LibTorch's aten::linear on the CPU, by schema name")),
       .register_probes = &register_probes,
       .other_plan = &make_op_subject<LinearHost<ReversedDot>>});
}

}  // namespace parity::ops::linear
