#pragma once
// The backward of a LoRA linear layer (lora_forward_op.hpp), declared as an op (ops/README.md,
// "Backward ops"): given x, W, A, B,
// the scale s and the output's gradient dy,
//   h[t, j]  = sum_k x[t, k] A[j, k]                   (the forward's low-rank activations)
//   dh[t, j] = sum_n s dy[t, n] B[n, j]
//   dx[t, k] = sum_n dy[t, n] W[n, k] + sum_j dh[t, j] A[j, k]
//   dA[j, k] = sum_t dh[t, j] x[t, k],      dB[n, j] = sum_t s dy[t, n] h[t, j]
// The base W is frozen: it has no gradient, and a subject returns no output beyond these three
// (the LoRA family's base_frozen checks that). x, W, dy
// and dx are bf16, A, B, dA and dB float32; a subject computes in float32 and rounds dx once.
// dx is per row t of T (independent, batch invariant); dA and dB sum over the batch's rows, so
// the row properties compare dx alone and the others every output.
//
// The evaluation orders the LoRA family permits (docs/math.md, "LoRA linear") are covered by the
// bounds derived here: the products are associated as written (h before B, dh before A or x);
// each output's terms are summed in any order and tree (dx's N + r terms as one sum, which bounds
// two sums then added too); and the scale s is one float32 multiplication anywhere on each
// term's path. Where s sits changes the bound: applied after a sum it multiplies that sum's
// underflow terms, applied to an operand (x at bf16's largest) it may overflow where the other
// placements do not, an unscaled sum with s < 1 may overflow where the scaled one does not. So
// each quantity s enters is bounded over its extreme placements together (Eval::covering: the
// errors summed, may overflow where any may): s on each factor, and s on the finished sum (or,
// in dx, on the low-rank part's sum); a placement between them is covered by their sum.
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/lora_forward/lora_forward_op.hpp>

namespace parity::ops::lora_backward {

struct LoraBackward {
  static OpDecl declaration() {
    return {
        .name = "lora_backward",
        .description = "LoRA backward: dx, dA, dB of y = x W^T + s (x A^T) B^T given dy, W frozen; dx over rows of T",
        .extents = lora_forward::LoraForward::extents(),
        .inputs = {{.name = "x", .shape = {"T", "K"}, .dtype_group = "act"},
                   {.name = "W", .shape = {"N", "K"}, .dtype_group = "act", .stddev = 0.05},
                   {.name = "A", .shape = {"r", "K"}, .dtype_group = "adapter", .stddev = 0.05},
                   {.name = "B", .shape = {"N", "r"}, .dtype_group = "adapter", .stddev = 0.05},
                   {.name = "dy", .shape = {"T", "N"}, .dtype_group = "act"}},
        .outputs = {{.name = "dx", .shape = {"T", "K"}, .dtype_group = "act"},
                    {.name = "dA", .shape = {"r", "K"}, .dtype_group = "adapter"},
                    {.name = "dB", .shape = {"N", "r"}, .dtype_group = "adapter"}},
        .params = {{.name = "scale", .values = {1.0, 2.0, 0.5, 16.0}, .min = 0.0, .max = 1024.0}},
        .dtypes = {DType::bf16},
        .group_dtypes = {{"adapter", {DType::f32}}},
        .row_extent = "T",
        // One backward's multiply-adds (h, dh, dx, dA, dB), three times over: the Bounded reference
        // evaluates each placement of the scale (covering; the double and MPFR ones the first
        // alone, once over); a case's runs and bounds within a second. Kept as main's element-by-
        // element reference declared it: the cases a seed draws depend on it.
        .work = "3*T*K*N + 9*T*K*r + 6*T*N*r",
        .max_work = std::int64_t{1} << 24,
        .reach_elements = std::int64_t{1} << 22,
        .reach_work = std::int64_t{1} << 26,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), N = e.extent("N"), K = e.extent("K"), r = e.extent("r");
    const auto x = e.matrix("x"), W = e.matrix("W"), A = e.matrix("A"), B = e.matrix("B"), dy = e.matrix("dy");
    const auto in_dy = e.input("dy");
    auto dx = e.output("dx");
    auto dA = e.output("dA");
    auto dB = e.output("dB");
    const R s = e.param("scale");
    const auto scaled = [&](const auto& in, std::int64_t rows, std::int64_t cols) {
      return e.matrix(rows, cols, [&](std::int64_t i, std::int64_t j) { return s * in(i, j); });
    };
    const Matrix<R> sdy = scaled(in_dy, T, N);
    // h = x A^T, and g = dy B with s on dy: the first way of every covering below, all that the
    // double and MPFR references evaluate (Eval::covering's other ways are for the bounds alone:
    // Bounded's and the filter's, whose lower bound of dA's and dB's E needs every way).
    const Matrix<R> h = e.matmul(x, A.t()), g1 = e.matmul(sdy, B);
    const Matrix<R> dB1 = e.matmul(sdy.t(), h);
    if constexpr (!forms_bounds<R>) {
      // dx's first way, one chain of N + r terms in order (the element-by-element sum's bits).
      e.each(e.wants("dx") ? T : 0, K, [&](std::int64_t t, std::int64_t k) {
        dx(t, k) =
            e.sum(N + r, [&](std::int64_t i) { return i < N ? dy(t, i) * W(i, k) : g1(t, i - N) * A(i - N, k); });
      });
      const Matrix<R> dA1 = e.matmul(g1.t(), x);
      for (std::int64_t j = 0; j < r; ++j)
        for (std::int64_t k = 0; k < K; ++k) dA(j, k) = dA1(j, k);
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t j = 0; j < r; ++j) dB(n, j) = dB1(n, j);
    } else {
      const auto in_x = e.input("x"), in_A = e.input("A"), in_B = e.input("B");
      const Matrix<R> sx = scaled(in_x, T, K), sA = scaled(in_A, r, K), sB = scaled(in_B, N, r);
      // h and g each with s on either factor or on the finished sum.
      const Matrix<R> g = e.matmul(dy, B);
      const Matrix<R> h1 = e.matmul(sx, A.t()), h2 = e.matmul(x, sA.t()), g2 = e.matmul(dy, sB);
      const Matrix<R> sh = e.matrix(T, r, [&](std::int64_t t, std::int64_t j) {
        return e.covering([&] { return h1(t, j); }, [&] { return h2(t, j); }, [&] { return s * h(t, j); });
      });
      const Matrix<R> sg = e.matrix(T, r, [&](std::int64_t t, std::int64_t j) {
        return e.covering([&] { return g1(t, j); }, [&] { return g2(t, j); }, [&] { return s * g(t, j); });
      });
      if (e.wants("dx")) {
        // dy W's N products, bounded as part of an N + r-term reduction in every way below: the
        // one-chain ways' depth, at least the separate sum's N-term depth (a larger depth only
        // widens a bound: by at most r / N relative on that sum's gamma term).
        const Matrix<R> base = e.matmul(dy, W, N + r);
        const Matrix<R> chain_sg = e.matmul(sg, A, N + r), chain_g = e.matmul(g, sA, N + r), gA = e.matmul(g, A);
        e.each(T, K, [&](std::int64_t t, std::int64_t k) {
          dx(t, k) =
              e.covering([&] { return e.parts(base(t, k), chain_sg(t, k)); },
                         [&] { return e.parts(base(t, k), chain_g(t, k)); }, [&] { return base(t, k) + s * gA(t, k); });
        });
      }
      const Matrix<R> dA1 = e.matmul(sg.t(), x), dA2 = e.matmul(g.t(), sx), dA3 = e.matmul(g.t(), x);
      for (std::int64_t j = 0; j < r; ++j)
        for (std::int64_t k = 0; k < K; ++k)
          dA(j, k) = e.covering([&] { return dA1(j, k); }, [&] { return dA2(j, k); }, [&] { return s * dA3(j, k); });
      const Matrix<R> dB2 = e.matmul(dy.t(), sh), dB3 = e.matmul(dy.t(), h);
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t j = 0; j < r; ++j)
          dB(n, j) = e.covering([&] { return dB1(n, j); }, [&] { return dB2(n, j); }, [&] { return s * dB3(n, j); });
    }
  }
};

}  // namespace parity::ops::lora_backward
