#pragma once
// SwiGLU (Shazeer 2020), the gated MLP activation of LLaMA-style and diffusion transformers, as
// fused kernels take it (vLLM's and FlashInfer's silu_and_mul, Liger's swiglu): one operand
// x [T, 2F] whose first half a = x[:, :F] is the gate and second half b = x[:, F:] the value,
//   y[t, i] = silu(a[t, i]) * b[t, i],   silu(a) = a / (1 + exp(-a)),
// over rows t of T (independent, nothing reduced). x and y share one dtype; a float32 or bf16
// subject computes in float32 and rounds y once.
#include <memory>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::swiglu {

struct Swiglu {
  static OpDecl declaration() {
    return {
        .name = "swiglu",
        .description = "SwiGLU: y = silu(a) * b, [a, b] the halves of x [T, 2F], silu(a) = a / (1 + exp(-a))",
        // Plan thresholds: rows per block on the row count; vector widths and tiles on F (odd F
        // is a vectorised kernel's tail, drawn among the small sizes).
        // Reach cases (op_cases.hpp) draw T up to 16384 and F up to 16384 (x [T, 2F] within 2^20).
        .extents = {{.name = "T", .max = 4096, .thresholds = {32, 64, 128, 256}, .reach = 16384},
                    {.name = "F", .max = 8192, .thresholds = {256, 512, 1024, 4096, 16384}, .reach = 16384}},
        // Gates of scale 30 saturate silu: exp(-a) overflows float32 for a < -88.7 (silu -> -0).
        .inputs = {{.name = "x", .shape = {"T", "2*F"}, .dtype_group = "act", .scales = {1.0, 30.0}}},
        .outputs = {{.name = "y", .shape = {"T", "F"}, .dtype_group = "act"}},
        .params = {},
        .row_extent = "T",
        .reduced_extents = {},
        .reach_elements = std::int64_t{1} << 20,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), F = e.extent("F");
    const auto x = e.input("x");
    auto y = e.output("y");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < F; ++i) {
        const R a = x(t, i);
        y(t, i) = (a / (R(1) + exp(-a))) * x(t, F + i);
      }
  }
};

// LibTorch's reference subjects (swiglu_torch.cpp; builtin_subjects.hpp, torch_subject).
// LibTorch's SwiGLU as a reference subject of swiglu: at::silu of the first half times the second half (ATen has no
// fused op; a bf16 silu is rounded to bf16 before the multiply, as an unfused model computes it); of swiglu_backward:
// autograd through that same computation (mul's and silu's backward, in x's dtype, as a model's training step runs
// them). Its results are findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();
std::unique_ptr<OpSubject> make_torch_cpu_backward();

}  // namespace parity::ops::swiglu
