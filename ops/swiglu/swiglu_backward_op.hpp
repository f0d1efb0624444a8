#pragma once
// The backward of swiglu (swiglu_op.hpp), declared as an op of its own (ops/README.md, "Backward
// ops"): given the forward's x = [a, b] and the output's gradient dy [T, F], the gradient dx = [da,
// db] [T, 2F] of y = silu(a) * b, written as the explicit formula fused kernels evaluate (Liger's
// swiglu backward; the model's feed-forward backward runs this op's kernels) over the real type, so
// that Bounded derives its bounds as for any op:
//   sig = 1 / (1 + exp(-a)),  silu = a / (1 + exp(-a)),  silu' = sig (1 + a (1 - sig)),
//   da[t, i] = (dy[t, i] b[t, i]) silu',   db[t, i] = dy[t, i] silu,
// over rows t of T (independent, nothing reduced). x, dy and dx share one dtype; a float32 or bf16
// subject computes in float32 and rounds dx once.
//
// Gates of scale 30 saturate, as the forward's: for a < -88.7 exp(-a) overflows float32, so a
// float32 kernel's sig and silu are 0 where the exact ones are about e^a, and the standard model of
// rounding (no overflow) bounds nothing there. The reference needs no case for it: the same exp(-a)
// makes Bounded's 1 + exp(-a) leave float32's finite range, so it may overflow, and the quotients
// sig and silu are bounded wide enough to cover the 0 that 1 / Inf gives (bounded.hpp); both
// gradients inherit that, and such an element of da and db is checked and counted (may_overflow),
// as the forward's y is.
#include <parity/ops/swiglu/swiglu_op.hpp>

namespace parity::ops::swiglu {

struct SwigluBackward {
  // The forward's declaration (extents, x, dtypes, rows) with dy in and dx out, as rms_norm_backward's.
  static OpDecl declaration() {
    OpDecl d = Swiglu::declaration();
    d.name = "swiglu_backward";
    d.description = "SwiGLU backward: dx = [da, db] of y = silu(a) * b, da = dy * b * silu'(a), db = dy * silu(a)";
    d.inputs.push_back({.name = "dy", .shape = {"T", "F"}, .dtype_group = "act"});
    d.outputs = {{.name = "dx", .shape = {"T", "2*F"}, .dtype_group = "act"}};
    return d;
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), F = e.extent("F");
    const auto x = e.input("x"), dy = e.input("dy");
    auto dx = e.output("dx");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < F; ++i) {
        const R a = x(t, i), b = x(t, F + i), g = dy(t, i);
        const R sig = R(1) / (R(1) + exp(-a));
        const R silu = a / (R(1) + exp(-a));
        dx(t, i) = (g * b) * (sig * (R(1) + a * (R(1) - sig)));
        dx(t, F + i) = g * silu;
      }
  }
};

}  // namespace parity::ops::swiglu
