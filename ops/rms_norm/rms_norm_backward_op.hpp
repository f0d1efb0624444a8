#pragma once
// The backward of rms_norm (rms_norm_op.hpp), declared as an op of its own (ops/README.md,
// "Backward ops"): given x, w and the output's gradient dy, the gradient of y with respect to x,
// written as the explicit backward formula over the real type, so that Bounded derives its bound as
// for any op:
//   inv      = rsqrt(mean_i(x[t, i]^2) + eps)        (rms_norm's, recomputed)
//   g[i]     = dy[t, i] * w[i],   xh[i] = x[t, i] * inv
//   mu       = (sum_i g[i] xh[i]) / D
//   dx[t, i] = inv * (g[i] - xh[i] * mu)
// dw is not an output: it is a sum over T, the row extent, so no kernel of it can be batch
// invariant along T; a weight gradient would be an op of its own, with T among its reduced extents.
// Extents, x, w, eps and dtypes are the forward's; dy and dx share x's dtype.
#include <parity/ops/rms_norm/rms_norm_op.hpp>

namespace parity::ops::rms_norm {

struct RmsNormBackward {
  static OpDecl declaration() {
    OpDecl d = RmsNorm::declaration();
    d.name = "rms_norm_backward";
    d.description = "RMSNorm backward: dx of rms_norm's y given dy, over rows of T, reducing over D";
    d.inputs.push_back({.name = "dy", .shape = {"T", "D"}, .dtype_group = "act"});
    d.outputs = {{.name = "dx", .shape = {"T", "D"}, .dtype_group = "act"}};
    return d;
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), D = e.extent("D");
    const auto x = e.input("x");
    const auto w = e.input("w");
    const auto dy = e.input("dy");
    auto dx = e.output("dx");
    const R eps = e.param("eps");
    for (std::int64_t t = 0; t < T; ++t) {
      const R squares = e.sum(D, [&](std::int64_t i) { return x(t, i) * x(t, i); });
      const R inv = rsqrt(squares / R(static_cast<double>(D)) + eps);
      const R dot = e.sum(D, [&](std::int64_t i) { return (dy(t, i) * w(i)) * (x(t, i) * inv); });
      const R mu = dot / R(static_cast<double>(D));
      for (std::int64_t i = 0; i < D; ++i) dx(t, i) = inv * (dy(t, i) * w(i) - (x(t, i) * inv) * mu);
    }
  }
};

}  // namespace parity::ops::rms_norm
