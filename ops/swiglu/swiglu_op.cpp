// The swiglu and swiglu_backward ops as parity ships them: their declarations (swiglu_op.hpp, swiglu_backward_op.hpp)
// with parity's kernels (the host twins and the CUDA factories, swiglu_kernel.cuh), LibTorch's references and the
// mismatch probes below.
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/swiglu/swiglu_backward_op.hpp>
#include <parity/ops/swiglu/swiglu_kernel.cuh>
#include <parity/ops/swiglu/swiglu_op.hpp>

namespace parity::ops::swiglu {

// Mismatch probes of swiglu (HostProbes, framework/op_subject.hpp).
namespace {

// The fast-exp probes' exp: Cody-Waite reduction in float32 (ln 2 unsplit) and a degree-5 Taylor
// polynomial, as hand-rolled fast-math kernels do: tens of ulps (truncation r^6 / 720 for
// |r| <= ln2 / 2, and the reduction's error growing with |x|), far outside the 0.5 ulp the kernels
// declare. For |x| <= 88 (the callers keep the exact path beyond: saturated, infinite or NaN).
float fast_exp(float x) {
  const float n = std::nearbyint(x * 1.44269504f);
  const float r = x - n * 0.693147182f;
  const float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120)))));
  return std::ldexp(p, static_cast<int>(n));
}

// silu through a fast exp (fast_exp, above): tens of ulps where the kernel declares 0.5.
struct FastExp : Standard {
  static float silu(float a) {
    if (!(std::fabs(a) <= 88.0f)) return Standard::silu(a);  // saturated, infinite or NaN: the exact path
    return a / (1.0f + fast_exp(-a));
  }
};

// The gate and the value taken from the wrong halves: y = silu(b) * a.
struct SwappedHalves : Standard {
  static std::int64_t gate(std::int64_t i, std::int64_t F) { return F + i; }
  static std::int64_t value(std::int64_t i, std::int64_t /*F*/) { return i; }
};

// silu(a) stored as bf16 before the multiply, as an unfused silu then mul does.
struct Bf16Intermediate : Standard {
  static float stored(float s) { return round_through_bf16(s); }
};

// Two columns per thread (a bf16x2 vector load) and no scalar tail: the last column of an odd F
// is never written.
struct DroppedTail : Standard {
  static std::int64_t written(std::int64_t F) { return F - F % 2; }
};

void register_probes() {
  const HostProbes<SwigluHost> probes{"swiglu"};
  probes.add<FastExp>("probe-fast-exp", "exp by a float32 reduction and a degree-5 polynomial (tens of ulps)");
  probes.add<SwappedHalves>("probe-swapped-halves", "y = silu(b) * a: the gate and the value from the wrong halves");
  probes.add<Bf16Intermediate>("probe-bf16-intermediate", "silu(a) rounded to bf16 before the multiply");
  probes.add<DroppedTail>("probe-dropped-tail", "two columns per thread, no tail: the last column of an odd F stays 0");
}

}  // namespace

// Mismatch probes of swiglu_backward (HostProbes, framework/op_subject.hpp).
namespace {

// exp(-a) through a fast exp (fast_exp, above), computed once for sig and silu: tens of ulps
// where the kernel declares 0.5.
struct BackwardFastExp : BackwardStandard {
  static Gradients gradients(float a, float b, float dy) {
    if (!(std::fabs(a) <= 88.0f)) return BackwardStandard::gradients(a, b,
                                                                     dy);  // saturated, infinite or NaN
    const float e = fast_exp(-a), sig = 1.0f / (1.0f + e);
    return {(dy * b) * (sig * (1.0f + a * (1.0f - sig))), dy * (a / (1.0f + e))};
  }
};

// da and db written to each other's half: dx = [db, da].
struct BackwardSwappedHalves : BackwardStandard {
  static std::int64_t da_column(std::int64_t i, std::int64_t F) { return F + i; }
  static std::int64_t db_column(std::int64_t i, std::int64_t /*F*/) { return i; }
};

// dy * b stored as bf16 before the multiply by silu'(a): autograd of an unfused silu(a) * b in a
// bf16 model, where mul's backward hands silu's backward a bf16 gradient.
struct BackwardBf16Intermediate : BackwardStandard {
  static Gradients gradients(float a, float b, float dy) {
    return {round_through_bf16(dy * b) * silu_derivative(a), dy * silu(a)};
  }
};

// From 128 rows on (a plan for large batches) two columns per thread (a bf16x2 vector load) and no
// scalar tail: the last column of an odd F keeps da = db = 0, while fewer rows are right.
struct BackwardDroppedTailFrom128Rows : BackwardStandard {
  static std::int64_t written(std::int64_t T, std::int64_t F) { return T >= 128 ? F - F % 2 : F; }
};

void register_backward_probes() {
  const HostProbes<SwigluBackwardHost> probes{"swiglu_backward"};
  probes.add<BackwardFastExp>("probe-fast-exp", "exp by a float32 reduction and a degree-5 polynomial (tens of ulps)");
  probes.add<BackwardSwappedHalves>("probe-swapped-halves", "dx = [db, da]: da and db written to each other's half");
  probes.add<BackwardBf16Intermediate>("probe-bf16-intermediate",
                                       "dy * b rounded to bf16 before the multiply by silu'(a)");
  probes.add<BackwardDroppedTailFrom128Rows>(
      "probe-dropped-tail-from-128-rows",
      "T >= 128: two columns per thread, no tail: the last column of an odd F stays 0");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<Swiglu>(
      {.kernel = "parity's deterministic SwiGLU kernel",
       .make_host = &make_op_subject<SwigluHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_subject("LibTorch's at::silu(a) * b on the CPU", &make_torch_cpu)),
       .register_probes = &register_probes});
}

const gen::Family& backward_family() {
  return shipped_op_family<SwigluBackward>(
      {.kernel = "parity's deterministic SwiGLU backward kernel",
       .make_host = &make_op_subject<SwigluBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch = PARITY_OP_TORCH(
           torch_subject("LibTorch's autograd of at::silu(a) * b on the CPU", &make_torch_cpu_backward)),
       .register_probes = &register_backward_probes});
}

}  // namespace parity::ops::swiglu
