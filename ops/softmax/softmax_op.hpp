#pragma once
// Softmax and log-softmax over the last dimension, as attention and the logits' loss use them:
//   m = max_i x[t, i],  s = sum_i exp(x[t, i] - m)
//   y[t, i] = exp(x[t, i] - m) / s,   log_y[t, i] = (x[t, i] - m) - log(s)
// over rows t of T (independent), reducing over N. x, y and log_y share one dtype (f32, bf16
// or f16); a subject computes in float32 and rounds each output once.
#include <memory>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::softmax {

struct Softmax {
  static OpDecl declaration() {
    return {
        .name = "softmax",
        .description = "softmax and log-softmax: y = exp(x - max) / sum exp(x - max) over rows of T, reducing over N",
        // Reach cases (op_cases.hpp) draw T and N up to 16384 (vocabulary-sized rows), T x N within 2^21.
        .extents =
            {{.name = "T", .max = 4096, .thresholds = {32, 64, 128, 256}, .reach = 16384},
             {.name = "N", .max = 8192, .thresholds = {256, 512, 1024, 2048, 4096, 8192, 16384}, .reach = 16384}},
        // Logits of scale 30 overflow exp without the max subtracted and underflow softmax.
        .inputs = {{.name = "x", .shape = {"T", "N"}, .dtype_group = "act", .scales = {1.0, 30.0}}},
        .outputs = {{.name = "y", .shape = {"T", "N"}, .dtype_group = "act"},
                    {.name = "log_y", .shape = {"T", "N"}, .dtype_group = "act"}},
        .params = {},
        .dtypes = {DType::f32, DType::bf16, DType::f16},
        .row_extent = "T",
        .reduced_extents = {"N"},
        .reach_elements = std::int64_t{1} << 21,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), N = e.extent("N");
    const auto x = e.input("x");
    auto y = e.output("y");
    auto log_y = e.output("log_y");
    for (std::int64_t t = 0; t < T; ++t) {
      const R m = e.max(N, [&](std::int64_t i) { return x(t, i); });
      const R s = e.sum(N, [&](std::int64_t i) { return exp(x(t, i) - m); });
      const R log_s = log(s);
      for (std::int64_t i = 0; i < N; ++i) {
        const R d = x(t, i) - m;
        y(t, i) = exp(d) / s;
        log_y(t, i) = d - log_s;
      }
    }
  }
};

// LibTorch's reference subjects (softmax_torch.cpp; builtin_subjects.hpp, torch_subject).
// LibTorch's softmax and log_softmax (at::softmax, at::log_softmax over dim 1) as a reference subject of softmax:
// findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::softmax
