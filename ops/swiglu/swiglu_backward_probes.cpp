// Mismatch probes of swiglu_backward: the backward kernel with one realistic step changed, each of
// which the generic properties must catch (parity probes swiglu_backward). They inherit the
// kernel's declared arithmetic: a probe that breaks that promise is exactly what must be caught.
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/ops/swiglu/swiglu_backward_host.hpp>
#include <parity/ops/swiglu/swiglu_fast_exp.hpp>
#include <parity/ops/swiglu/swiglu_subjects.hpp>

namespace parity::ops::swiglu {
namespace {

// exp(-a) through a fast exp (swiglu_fast_exp.hpp), computed once for sig and silu: tens of ulps
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

}  // namespace

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

}  // namespace parity::ops::swiglu
