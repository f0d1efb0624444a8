#pragma once
// AdaLN modulation as DiT (Peebles and Xie 2023) and its descendants (PixArt, SD3, Flux) apply
// it before attention and the MLP: a LayerNorm without affine over each token's D channels,
// modulated by a per-sample scale and shift (the conditioning's adaLN projection):
//   mean[b, s] = mean_i x[b, s, i],   var[b, s] = mean_i (x[b, s, i] - mean[b, s])^2
//   y[b, s, i] = ((x[b, s, i] - mean[b, s]) * rsqrt(var[b, s] + eps)) * (1 + scale[b, i]) + shift[b, i]
// x and y [B, S, D] are [B, S*D] here (the framework's operands are rank 1 or 2; token s holds
// columns [sD, sD + D)); scale and shift are [B, D], broadcast over the S tokens of sample b.
//
// The row extent is the batch B, not the tokens: a row must carry every input its outputs read,
// and a token's output reads its sample's scale and shift. So rows_independent and
// batch_vs_batch ask that a sample's S tokens give the same bits alone and in any batch, which
// is what a sampler running a batch of prompts (or CFG's doubled batch) needs. Left unchecked:
// that a token's bits do not depend on S, the number of tokens beside it in its sample (that
// needs a second row extent; the framework has one per op). x, scale, shift and y share one
// dtype; a float32 or bf16 subject computes in float32 and rounds y once. The variance is the
// two-pass one.
#include <memory>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::adaln {

struct AdaLN {
  static OpDecl declaration() {
    return {
        .name = "adaln",
        .description = "AdaLN: y = layer_norm(x) * (1 + scale) + shift, x [B, S, D], scale and shift [B, D]",
        // Plan thresholds: samples per launch chunk on B; tokens per block on S (DiT's 256 and
        // 1024 tokens); the reduction's width on D (DiT-XL 1152, Flux 3072).
        // Reach cases (op_cases.hpp) draw S up to 16384 tokens and D up to 8192, x within 2^20.
        .extents = {{.name = "B", .max = 64, .thresholds = {8, 16}},
                    {.name = "S", .max = 4096, .thresholds = {64, 256, 1024, 16384}, .reach = 16384},
                    {.name = "D", .max = 4096, .thresholds = {256, 512, 1024, 2048, 8192}, .reach = 8192}},
        // Activations with an offset (mean 1) and a small spread (scale 1e-3) are where a
        // one-pass variance cancels; scale 30 is a large-activation token.
        .inputs = {{.name = "x", .shape = {"B", "S*D"}, .dtype_group = "act", .mean = 1.0, .scales = {1.0, 1e-3, 30.0}},
                   {.name = "scale", .shape = {"B", "D"}, .dtype_group = "act", .stddev = 0.5},
                   {.name = "shift", .shape = {"B", "D"}, .dtype_group = "act", .stddev = 0.5}},
        .outputs = {{.name = "y", .shape = {"B", "S*D"}, .dtype_group = "act"}},
        // eps > 0 (at least the smallest normal float): with eps = 0 a constant token is 0 / 0
        // in exact arithmetic, a class a float evaluation whose mean rounds need not share.
        .params = {{.name = "eps", .values = {1e-6, 1e-5, 1e-12}, .min = 0x1p-126, .max = 1.0}},
        .row_extent = "B",
        .reduced_extents = {"D"},
        .reach_elements = std::int64_t{1} << 20,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t B = e.extent("B"), S = e.extent("S"), D = e.extent("D");
    const auto x = e.input("x");
    const auto scale = e.input("scale");
    const auto shift = e.input("shift");
    auto y = e.output("y");
    const R eps = e.param("eps"), width(static_cast<double>(D));
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t s = 0; s < S; ++s) {
        const std::int64_t base = s * D;
        const R mean = e.sum(D, [&](std::int64_t i) { return x(b, base + i); }) / width;
        const R var = e.sum(D, [&](std::int64_t i) {
          const R d = x(b, base + i) - mean;
          return d * d;
        }) / width;
        const R inv = rsqrt(var + eps);
        for (std::int64_t i = 0; i < D; ++i)
          y(b, base + i) = ((x(b, base + i) - mean) * inv) * (R(1) + scale(b, i)) + shift(b, i);
      }
  }
};

// LibTorch's reference subjects (adaln_torch.cpp; builtin_subjects.hpp, torch_subject).
// LibTorch's AdaLN as a reference subject of adaln: at::layer_norm over D without affine, then * (1 + scale) + shift
// broadcast over the tokens, in x's dtype (as DiT's modulate() computes it). Findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::adaln
