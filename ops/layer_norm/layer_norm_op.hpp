#pragma once
// LayerNorm (Ba, Kiros and Hinton 2016), as diffusion transformers use it (elementwise affine
// optional: DiT's norms before AdaLN modulation have none):
//   mean = sum_i x[t, i] / D,   var = sum_i (x[t, i] - mean)^2 / D   (biased, as torch's)
//   y[t, i] = (x[t, i] - mean) * rsqrt(var + eps)  (* w[i] + b[i] where the case has the affine)
// over rows t of T (independent), reducing over D. x, w, b and y share one dtype; a float32 or
// bf16 subject computes in float32 and rounds y once.
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::layer_norm {

struct LayerNorm {
  static OpDecl declaration() {
    return {
        .name = "layer_norm",
        .description = "LayerNorm: y = (x - mean) * rsqrt(var + eps) (* w + b) over rows of T, reducing over D",
        // Plan thresholds: rows per block switch on the row count, the reduction on the width.
        // Reach cases (op_cases.hpp) draw T and D up to 16384, T x D within 2^21.
        .extents =
            {{.name = "T", .max = 4096, .thresholds = {32, 64, 128, 256}, .reach = 16384},
             {.name = "D", .max = 8192, .thresholds = {256, 512, 1024, 2048, 4096, 8192, 16384}, .reach = 16384}},
        // Activations of mean 1 and spread 1e-2 or 1e-3 (an offset 100 to 1000 times the spread)
        // are where a one-pass variance E[x^2] - E[x]^2 cancels catastrophically, and a variance
        // near eps is where eps and its placement matter.
        .inputs =
            {{.name = "x", .shape = {"T", "D"}, .dtype_group = "act", .mean = 1.0, .scales = {1.0, 1e-2, 1e-3}},
             {.name = "w", .shape = {"D"}, .dtype_group = "act", .mean = 1.0, .stddev = 0.1, .present_if = "affine"},
             {.name = "b", .shape = {"D"}, .dtype_group = "act", .stddev = 0.1, .present_if = "affine"}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "act"}},
        .params = {{.name = "eps", .values = {1e-5, 1e-6, 0.0}, .min = 0.0, .max = 1.0},
                   {.name = "affine", .values = {0.0, 1.0}, .min = 0.0, .max = 1.0}},
        .row_extent = "T",
        .reduced_extents = {"D"},
        .reach_elements = std::int64_t{1} << 21,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), D = e.extent("D");
    const auto x = e.input("x");
    auto y = e.output("y");
    const R eps = e.param("eps");
    const bool affine = e.has_input("w");
    const R width(static_cast<double>(D));
    for (std::int64_t t = 0; t < T; ++t) {
      const R mean = e.sum(D, [&](std::int64_t i) { return x(t, i); }) / width;
      const R var = e.sum(D, [&](std::int64_t i) { return (x(t, i) - mean) * (x(t, i) - mean); }) / width;
      const R inv = rsqrt(var + eps);
      for (std::int64_t i = 0; i < D; ++i) {
        const R normed = (x(t, i) - mean) * inv;
        y(t, i) = affine ? normed * e.input("w")(i) + e.input("b")(i) : normed;
      }
    }
  }
};

}  // namespace parity::ops::layer_norm
