#pragma once
// The backward of a LoRA linear layer (lora_forward_op.hpp), as parity's LoRA family defines it
// (subjects/lora_family.hpp), declared as an op (ops/README.md, "Backward ops"): given x, W, A, B,
// the scale s and the output's gradient dy,
//   h[t, j]  = sum_k x[t, k] A[j, k]                   (the forward's low-rank activations)
//   dh[t, j] = sum_n s dy[t, n] B[n, j]
//   dx[t, k] = sum_n dy[t, n] W[n, k] + sum_j dh[t, j] A[j, k]
//   dA[j, k] = sum_t dh[t, j] x[t, k],      dB[n, j] = sum_t s dy[t, n] h[t, j]
// The base W is frozen: it has no gradient (the LoRA family's base_frozen checks that). x, W, dy
// and dx are bf16, A, B, dA and dB float32; a subject computes in float32 and rounds dx once.
// dx is per row t of T (independent, batch invariant); dA and dB sum over the batch's rows, so
// the row properties compare dx alone and the others every output.
//
// The evaluation orders the LoRA family permits (docs/math.md, "LoRA linear") are covered by the
// bounds derived here: the products are associated as written (h before B, dh before A or x);
// each output's terms are summed in any order and tree (dx's N + r terms as one sum, which bounds
// two sums then added too); and s multiplies dy in every term where it enters, so each term
// carries the one rounding of s wherever a subject applies it (to dy, to h or dh, to a partial
// or finished sum): a rounding of a finished sum is at most that sum of the terms' roundings.
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::lora_backward {

struct LoraBackward {
  static OpDecl declaration() {
    return {
        .name = "lora_backward",
        .description = "LoRA backward: dx, dA, dB of y = x W^T + s (x A^T) B^T given dy, W frozen; dx over rows of T",
        // lora_forward's extents and plan thresholds: a backward kernel tiles the same GEMMs.
        .extents = {{.name = "T", .max = 4096, .thresholds = {16, 64, 128, 256}},
                    {.name = "N", .max = 1024, .thresholds = {64, 128}},
                    {.name = "K", .max = 8192, .thresholds = {32, 1024, 4096}},
                    {.name = "r", .max = 64, .thresholds = {16, 32}}},
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
        // One backward's multiply-adds (h, dh, dx, dA, dB): a case's runs and bounds within a second.
        .work = "T*K*N + 3*T*K*r + 2*T*N*r",
        .max_work = std::int64_t{1} << 24,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), N = e.extent("N"), K = e.extent("K"), r = e.extent("r");
    const auto x = e.input("x");
    const auto W = e.input("W");
    const auto A = e.input("A");
    const auto B = e.input("B");
    const auto dy = e.input("dy");
    auto dx = e.output("dx");
    auto dA = e.output("dA");
    auto dB = e.output("dB");
    const R s = e.param("scale");
    const auto at = [r](std::int64_t t, std::int64_t j) { return static_cast<std::size_t>(t * r + j); };
    std::vector<R> h, dh;
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < r; ++j) {
        h.push_back(e.sum(K, [&](std::int64_t k) { return x(t, k) * A(j, k); }));
        dh.push_back(e.sum(N, [&](std::int64_t n) { return s * dy(t, n) * B(n, j); }));
      }
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k)
        dx(t, k) =
            e.sum(N + r, [&](std::int64_t i) { return i < N ? dy(t, i) * W(i, k) : dh[at(t, i - N)] * A(i - N, k); });
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t k = 0; k < K; ++k) dA(j, k) = e.sum(T, [&](std::int64_t t) { return dh[at(t, j)] * x(t, k); });
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t j = 0; j < r; ++j)
        dB(n, j) = e.sum(T, [&](std::int64_t t) { return s * dy(t, n) * h[at(t, j)]; });
  }
};

}  // namespace parity::ops::lora_backward
