#pragma once
// Linear with optional bias, as every projection of a transformer uses it (torch.nn.Linear):
//   y[t, n] = sum_k x[t, k] * W[n, k]  (+ b[n] where the case has a bias)
// over rows t of T (independent), reducing over K. x, W, b and y share one dtype; a float32 or
// bf16 subject computes in float32 and rounds y once.
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::linear {

struct Linear {
  static OpDecl declaration() {
    return {
        .name = "linear",
        .description = "linear: y = x W^T (+ b) over rows of T, reducing over K",
        // Plan thresholds: GEMM tiles switch on the row count (64, 128, 256 rows) and the output
        // width (64, 128 columns); split-K plans start at long reductions (K >= 1024). Reach cases
        // (op_cases.hpp) draw T up to 8192 and N up to 8192 (cuBLAS's heuristics pick kernels from
        // T at N = K = 2048), W and the work within the reach caps.
        .extents = {{.name = "T", .max = 4096, .thresholds = {64, 128, 256}, .reach = 8192},
                    {.name = "N", .max = 1024, .thresholds = {64, 128, 2048, 8192}, .reach = 8192},
                    {.name = "K", .max = 8192, .thresholds = {1024, 4096}}},
        // W of spread 0.05 (an initialised projection's, 1/sqrt(K) at K = 400) keeps y of spread at
        // most 4.5 (K = 8192); small activations (scale 1e-3) beside a unit bias are where an early
        // rounding shows.
        .inputs = {{.name = "x", .shape = {"T", "K"}, .dtype_group = "act", .scales = {1.0, 1e-3}},
                   {.name = "W", .shape = {"N", "K"}, .dtype_group = "act", .stddev = 0.05},
                   {.name = "b", .shape = {"N"}, .dtype_group = "act", .present_if = "bias"}},
        .outputs = {{.name = "y", .shape = {"T", "N"}, .dtype_group = "act"}},
        .params = {{.name = "bias", .values = {0.0, 1.0}, .min = 0.0, .max = 1.0}},
        .row_extent = "T",
        .reduced_extents = {"K"},
        // T x N x K multiply-adds: a case's runs and its bounds stay within a second on two cores.
        .work = "T*N*K",
        .max_work = std::int64_t{1} << 24,
        .reach_elements = std::int64_t{1} << 22,
        .reach_work = std::int64_t{1} << 26,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), N = e.extent("N");
    const Matrix<R> acc = e.matmul(e.matrix("x"), e.matrix("W").t());
    auto y = e.output("y");
    const bool bias = e.has_input("b");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t n = 0; n < N; ++n) y(t, n) = bias ? acc(t, n) + e.input("b")(n) : acc(t, n);
  }
};

}  // namespace parity::ops::linear
