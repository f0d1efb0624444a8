#pragma once
// RMSNorm (Zhang and Sennrich 2019), as LLaMA-style and diffusion transformers use it:
//   y[t, i] = x[t, i] * rsqrt(mean_i(x[t, :]^2) + eps) * w[i]
// over rows t of T (independent), reducing over D. x, w and y share one dtype (f32, bf16 or
// f16); a subject computes in float32 and rounds y once.
#include <memory>
#include <string>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rms_norm {

struct RmsNorm {
  static OpDecl declaration() {
    return {
        .name = "rms_norm",
        .description = "RMSNorm: y = x * rsqrt(mean(x^2) + eps) * w over rows of T, reducing over D",
        // Plan thresholds: rows per block and split-row plans switch on the row count (vLLM's at
        // 256, SGLang's from the total row count), the reduction on the width (hidden sizes up to
        // 16384). Reach cases (op_cases.hpp) draw T and D up to 16384, T x D within 2^21.
        .extents =
            {{.name = "T", .max = 4096, .thresholds = {32, 64, 128, 256}, .reach = 16384},
             {.name = "D", .max = 8192, .thresholds = {256, 512, 1024, 2048, 4096, 8192, 16384}, .reach = 16384}},
        // Small activations (scale 1e-3) are where eps and its placement matter.
        .inputs = {{.name = "x", .shape = {"T", "D"}, .dtype_group = "act", .scales = {1.0, 1e-3, 30.0}},
                   {.name = "w", .shape = {"D"}, .dtype_group = "act", .mean = 1.0, .stddev = 0.1}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "act"}},
        .params = {{.name = "eps", .values = {1e-6, 1e-5, 1e-12, 0.0}, .min = 0.0, .max = 1.0}},
        .dtypes = {DType::f32, DType::bf16, DType::f16},
        .row_extent = "T",
        .reduced_extents = {"D"},
        .reach_elements = std::int64_t{1} << 21,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), D = e.extent("D");
    const auto x = e.input("x");
    const auto w = e.input("w");
    auto y = e.output("y");
    const R eps = e.param("eps");
    for (std::int64_t t = 0; t < T; ++t) {
      const R squares = e.sum(D, [&](std::int64_t i) { return x(t, i) * x(t, i); });
      const R inv = rsqrt(squares / R(static_cast<double>(D)) + eps);
      for (std::int64_t i = 0; i < D; ++i) y(t, i) = (x(t, i) * inv) * w(i);
    }
  }
};

// LibTorch's reference subjects (rms_norm_torch.cpp; builtin_subjects.hpp, torch_subject).
// Autograd's gradient through LibTorch's at::rms_norm as the reference subject of rms_norm_backward:
// findings, never gated (rms_norm's own reference is aten::rms_norm by schema name). dx = x's
// gradient of at::rms_norm(x, {D}, w, eps) given dy, in x's dtype.
std::unique_ptr<OpSubject> make_torch_cpu_backward();
// "" where this LibTorch has at::rms_norm (2.4 and later), else why not.
std::string torch_unavailable_reason();

}  // namespace parity::ops::rms_norm
