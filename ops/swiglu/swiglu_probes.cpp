// Mismatch probes of swiglu: the kernel with one realistic step changed, each of which the
// generic properties must catch (parity probes swiglu). They inherit the kernel's declared
// arithmetic: a probe that breaks that promise is exactly what must be caught.
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/ops/swiglu/swiglu_fast_exp.hpp>
#include <parity/ops/swiglu/swiglu_host.hpp>
#include <parity/ops/swiglu/swiglu_subjects.hpp>

namespace parity::ops::swiglu {
namespace {

// silu through a fast exp (swiglu_fast_exp.hpp): tens of ulps where the kernel declares 0.5.
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

}  // namespace

void register_probes() {
  const HostProbes<SwigluHost> probes{"swiglu"};
  probes.add<FastExp>("probe-fast-exp", "exp by a float32 reduction and a degree-5 polynomial (tens of ulps)");
  probes.add<SwappedHalves>("probe-swapped-halves", "y = silu(b) * a: the gate and the value from the wrong halves");
  probes.add<Bf16Intermediate>("probe-bf16-intermediate", "silu(a) rounded to bf16 before the multiply");
  probes.add<DroppedTail>("probe-dropped-tail", "two columns per thread, no tail: the last column of an odd F stays 0");
}

}  // namespace parity::ops::swiglu
