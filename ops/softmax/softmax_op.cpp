// The softmax op as parity ships it: its declaration (softmax_op.hpp) with parity's kernel (the host twin and
// the CUDA factory, softmax_kernel.cuh), LibTorch's reference and the mismatch probes below.
#include <cmath>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/softmax/softmax_kernel.cuh>
#include <parity/ops/softmax/softmax_op.hpp>

namespace parity::ops::softmax {

// Mismatch probes of softmax (HostProbes, framework/op_subject.hpp).
namespace {

// exp(x) / sum exp(x) without the maximum subtracted: overflows for logits past ~88.
struct NoMax : Standard {
  static float max(const float*, std::int64_t) { return 0.0f; }
};

// From 64 rows on, another plan sums each row in plain ascending order (one thread per row).
struct PlanByRows : Standard {
  static float sum(const float* row, std::int64_t N, std::int64_t T, float m) {
    if (T < 64) return Standard::sum(row, N, T, m);
    float s = 0.0f;
    for (std::int64_t i = 0; i < N; ++i) s = s + shifted_exp(row[i], m);
    return s;
  }
};

// log-softmax as the log of the softmax: -inf where the probability underflows.
struct LogOfSoftmax : Standard {
  static float log_y(float x, float m, float s) { return detmath::log_f32(prob(x, m, s)); }
};

// exp as 2^(x log2 e) with the product rounded to float first (CUDA's __expf does this): an
// error growing with |x - m|, beyond the 0.5 ulp the kernel declares.
struct FastExp : Standard {
  static float e(float d) { return static_cast<float>(std::exp2(static_cast<double>(d * 1.44269504f))); }
  static float sum(const float* row, std::int64_t N, std::int64_t, float m) {
    return kernels::host_lane_sum([row, m](std::int64_t i) { return e(row[i] - m); }, N);
  }
  static float y(float x, float m, float s) { return e(x - m) / s; }
};

// parity's kernel with another plan (BuiltinSubjects::other_plan): each row's sum of exp(x - m)
// over the row reversed, in the same lanes; as accurate, other bits.
struct ReversedSum : Standard {
  static float sum(const float* row, std::int64_t N, std::int64_t T, float m) {
    return Standard::sum(kernels::reversed(row, N).data(), N, T, m);
  }
};

void register_probes() {
  const HostProbes<SoftmaxHost> probes{"softmax"};
  probes.add<NoMax>("probe-no-max", "exp(x) / sum exp(x): the maximum not subtracted");
  probes.add<PlanByRows>("probe-plan-by-rows", "from T >= 64 rows, each row summed in plain ascending order");
  probes.add<LogOfSoftmax>("probe-log-of-softmax", "log_y as log(y), -inf where y underflows");
  probes.add<FastExp>("probe-fast-exp", "exp as exp2 of a float32 product x * log2(e), as __expf");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<Softmax>({.kernel = "parity's deterministic softmax kernel",
                                     .make_host = &make_op_subject<SoftmaxHost<Standard>>,
                                     .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                     .torch = PARITY_OP_TORCH(torch_subject(
                                         "LibTorch's at::softmax and at::log_softmax on the CPU", &make_torch_cpu)),
                                     .register_probes = &register_probes,
                                     .other_plan = &make_op_subject<SoftmaxHost<ReversedSum>>});
}

}  // namespace parity::ops::softmax
