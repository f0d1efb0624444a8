#pragma once
// The forward of a LoRA linear layer (Hu et al. 2021), declared as an op (docs/math.md, "LoRA
// linear"):
//   h[t, j] = sum_k x[t, k] A[j, k]
//   y[t, n] = sum_k x[t, k] W[n, k] + s * sum_j h[t, j] B[n, j]
// over rows t of T (independent), reducing over K and the rank r. x, W and y are bf16 (the
// activations and the frozen base weight), A and B float32 (the trainable adapter); a subject
// computes in float32 and rounds y once. Its subjects (lora_forward_op.cpp): parity's kernel
// (lora_host.hpp, lora.cu), LibTorch's (lora_torch.cpp) and the probes (lora_probes.hpp). The
// LoRA family's own properties (the frozen base, the adapter's gradients, the gate's figures)
// are families/lora's.
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::lora_forward {

struct LoraForward {
  // T, N, K, r with their plan thresholds (lora_backward's too: a backward kernel tiles the same
  // GEMMs): batched plans and split-K switch on the row count (16, 64, 128 rows, what parity's
  // LoRA probes model, and the GEMM tiles' 256), split-K and the reduction tiles on K, the rank
  // path past a tile of 32 adapter columns. Reach cases (op_cases.hpp) draw T and N up to 8192 (N
  // at 2048, a projection of a 2048-wide model), within reach_elements and reach_work.
  static std::vector<ExtentDecl> extents() {
    return {{.name = "T", .max = 4096, .thresholds = {16, 64, 128, 256}, .reach = 8192},
            {.name = "N", .max = 1024, .thresholds = {64, 128, 2048, 8192}, .reach = 8192},
            {.name = "K", .max = 8192, .thresholds = {32, 1024, 4096}},
            {.name = "r", .max = 64, .thresholds = {16, 32}}};
  }

  static OpDecl declaration() {
    return {
        .name = "lora_forward",
        .description = "LoRA forward: y = x W^T + s (x A^T) B^T over rows of T, reducing over K and r",
        .extents = extents(),
        // W and A of spread 0.05 (initialised projections, 1/sqrt(K) at K = 400); B of spread
        // 0.05 is a trained adapter's, so the low-rank path is a few percent of y, far above a
        // bf16 ulp: a kernel that drops or mis-scales it is visible.
        .inputs = {{.name = "x", .shape = {"T", "K"}, .dtype_group = "act"},
                   {.name = "W", .shape = {"N", "K"}, .dtype_group = "act", .stddev = 0.05},
                   {.name = "A", .shape = {"r", "K"}, .dtype_group = "adapter", .stddev = 0.05},
                   {.name = "B", .shape = {"N", "r"}, .dtype_group = "adapter", .stddev = 0.05}},
        .outputs = {{.name = "y", .shape = {"T", "N"}, .dtype_group = "act"}},
        // s = alpha / r: 1, and the alpha = 2r, alpha = r / 2 and alpha = 16 at r = 1 of common
        // recipes.
        .params = {{.name = "scale", .values = {1.0, 2.0, 0.5, 16.0}, .min = 0.0, .max = 1024.0}},
        .dtypes = {DType::bf16},
        .group_dtypes = {{"adapter", {DType::f32}}},
        .row_extent = "T",
        .reduced_extents = {"K", "r"},
        // One forward's multiply-adds, kept as main's element-by-element reference declared them
        // (the cases a seed draws depend on it): h three times (s on x and on A), the low-rank
        // sums, x W^T twice. The Bounded reference now forms x W^T once and the low-rank sum in 9
        // GEMMs of T*N*r (h B^T; four placements of s, alone and in the chain), the double and
        // MPFR ones x W^T, h and h B^T alone: a case's runs and its bounds stay within a second.
        .work = "2*T*K*N + 3*T*K*r + 6*T*N*r",
        .max_work = std::int64_t{1} << 24,
        .reach_elements = std::int64_t{1} << 22,
        .reach_work = std::int64_t{1} << 26,
    };
  }

  // The LoRA family's contract (docs/math.md, "The evaluation orders a subject may take") lets a
  // subject sum y's K + r terms as x W^T and the low-rank sum apart, then added, or as one chain
  // in any order and tree, with s once anywhere on a low-rank term's path. y is bounded over both
  // (Eval::covering): the two sums, with s on the finished low-rank sum (parity's kernel) or on
  // its terms; and every K + r term in one sum, s on the low-rank terms. A one-chain order passes
  // a term through up to K + r - 1 additions and may overflow where the two sums do not (x W^T's
  // partial sums and the low-rank ones mixed): the two-sum way alone would not bound it.
  // The double, MPFR and Filtered references evaluate only the first way, x W^T + s (h B^T) with
  // h = x A^T: the ways past it are built for Bounded only. The filter's lo from the first way is
  // a lower bound of the covering's E too (a sum of non-negative E), and x W^T's dominates it:
  // the filter decides y without the 8 rank-r products of the other ways.
  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), N = e.extent("N"), K = e.extent("K"), r = e.extent("r");
    const auto x = e.matrix("x"), W = e.matrix("W"), A = e.matrix("A"), B = e.matrix("B");
    auto y = e.output("y");
    const R s = e.param("scale");
    const Matrix<R> h = e.matmul(x, A.t());
    // x W^T's K products, bounded as part of a K + r-term reduction in both ways below: the
    // one-chain way's depth, which is at least the two-sum way's K-term depth (a larger depth only
    // widens a bound: by at most r / K relative on the reduction's gamma term).
    const Matrix<R> base = e.matmul(x, W.t(), K + r);
    const Matrix<R> hB = e.matmul(h, B.t());
    if constexpr (!std::is_same_v<R, Bounded>) {
      e.each(T, N, [&](std::int64_t t, std::int64_t n) { y(t, n) = base(t, n) + s * hB(t, n); });
    } else {
      const auto in_x = e.input("x"), in_A = e.input("A"), in_B = e.input("B");
      // Each low-rank term is bounded over s on h, on B, on x and on A; s on a product h_j B_nj or
      // on a partial sum is covered by the ways summed, s on the finished sum among them
      // (lora_backward_op.hpp says why). A subject may place s differently per term: each way is
      // one whole sum with s in one place on every term, and the covering of those whole sums
      // bounds any per-term mix, being no smaller than the sum of the per-term coverings
      // (Bounded::covering): sum_w sum_j (E_wj + gamma M_wj) >= sum_j (sum_w E_wj + gamma (|v_1j| +
      // 2 sum_w E_wj)), every M_wj >= |v_wj| + 2 E_wj.
      const Matrix<R> sx = e.matrix(T, K, [&](std::int64_t t, std::int64_t k) { return s * in_x(t, k); });
      const Matrix<R> sA = e.matrix(r, K, [&](std::int64_t j, std::int64_t k) { return s * in_A(j, k); });
      const Matrix<R> h_sx = e.matmul(sx, A.t()), h_sA = e.matmul(x, sA.t());
      const Matrix<R> sh = e.matrix(T, r, [&](std::int64_t t, std::int64_t j) { return s * h(t, j); });
      const Matrix<R> sB = e.matrix(N, r, [&](std::int64_t n, std::int64_t j) { return s * in_B(n, j); });
      // `terms`: the low-rank sum alone (r), or as a part of the one-chain sum of K + r terms.
      const auto low_ways = [&](std::int64_t terms) {
        std::vector<Matrix<R>> ways;  // moved in: an initializer list would copy each
        ways.push_back(e.matmul(sh, B.t(), terms));
        ways.push_back(e.matmul(h, sB.t(), terms));
        ways.push_back(e.matmul(h_sx, B.t(), terms));
        ways.push_back(e.matmul(h_sA, B.t(), terms));
        return ways;
      };
      const std::vector<Matrix<R>> low = low_ways(r), low_in_chain = low_ways(K + r);
      const auto low_sum = [&](const std::vector<Matrix<R>>& ways, std::int64_t t, std::int64_t n) {
        return e.covering([&] { return ways[0](t, n); }, [&] { return ways[1](t, n); }, [&] { return ways[2](t, n); },
                          [&] { return ways[3](t, n); });
      };
      e.each(T, N, [&](std::int64_t t, std::int64_t n) {
        // The kernels' fma(s, low_rank, base) rounds once where this rounds twice, and their
        // fma chains round less than products then sums: the bound covers them, a little wide.
        y(t, n) = e.covering(
            [&] { return base(t, n) + e.covering([&] { return s * hB(t, n); }, [&] { return low_sum(low, t, n); }); },
            [&] { return e.parts(base(t, n), low_sum(low_in_chain, t, n)); });
      });
    }
  }
};

}  // namespace parity::ops::lora_forward
