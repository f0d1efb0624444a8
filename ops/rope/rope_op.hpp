#pragma once
// Rotary position embedding (Su et al. 2021) as LLM and diffusion transformers apply it to q and k,
// in the form fused kernels take it (flash-attn's apply_rotary_emb, TransformerEngine's fused_rope,
// diffusers' apply_rotary_emb): x [T, H, D] with D = 2P + Q, tables cos, sin [T, P] holding
// cos(pos_t theta_j) and sin(pos_t theta_j) for each token's own position (operands: how positions,
// theta and multi-axis schemes such as Flux's make them is the caller's business, and the
// rotation's arithmetic does not depend on it, so parity draws them as values of that size).
// Element pairs (x1, x2) of each head are rotated by the angle of their pair index j:
//   y1 = x1 * cos[t, j] - x2 * sin[t, j],   y2 = x2 * cos[t, j] + x1 * sin[t, j]
// with the pairing a parameter: interleaved = 0, half-split (GPT-NeoX, HF's rotate_half): (x[j],
// x[j + P]); interleaved = 1 (GPT-J): (x[2j], x[2j + 1]). The last Q dims of each head pass through
// unrotated (y = x): partial rotary embedding, as GPT-NeoX's rotary_pct and models that rotate only
// the first rope_dims of a head apply it; Q = 0 rotates the whole head, and a kernel that always
// does is checked with `--max Q=0`. A subject's x and y are [T, H, D]; the engine holds them as
// the matrices [T, H*D] (op_view.hpp; head h holds columns [hD, hD + D)). Rows t of T are
// independent, nothing is reduced. x and y share one dtype, cos and sin another (a float32 table
// for bf16 activations is common); a float32 or bf16 subject computes in float32, rounds y once.
#include <memory>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/rope/rope_pairing.hpp>  // the pairing, pair_first and pair_second

namespace parity::ops::rope {

struct Rope {
  static OpDecl declaration() {
    return {
        .name = "rope",
        .description =
            "RoPE: the first 2P dims of x [T, H, 2P+Q] rotated in pairs by cos, sin [T, P], the last Q passed through; "
            "half-split or interleaved pairs",
        // Plan thresholds: tokens per block on the row count; heads per block; head dims 32, 64,
        // 128 (2P, the rotated dims) select vectorised paths.
        // Reach cases (op_cases.hpp) draw T up to 16384 and H up to 128, x within 2^20.
        .extents = {{.name = "T", .max = 4096, .thresholds = {32, 64, 128, 256}, .reach = 16384},
                    {.name = "H", .max = 64, .thresholds = {8, 16, 32, 128}, .reach = 128},
                    {.name = "P", .max = 256, .thresholds = {16, 32, 64}},
                    // Unrotated dims per head, 0 (the whole head rotated) the smallest.
                    {.name = "Q", .max = 64, .min = 0}},
        .inputs = {{.name = "x",
                    .shape = {"T", "H*2*P+H*Q"},
                    .dtype_group = "act",
                    .scales = {1.0, 30.0},
                    .dims = {"T", "H", "2*P+Q"}},
                   {.name = "cos", .shape = {"T", "P"}, .dtype_group = "table", .stddev = 0.7},
                   {.name = "sin", .shape = {"T", "P"}, .dtype_group = "table", .stddev = 0.7}},
        .outputs = {{.name = "y", .shape = {"T", "H*2*P+H*Q"}, .dtype_group = "act", .dims = {"T", "H", "2*P+Q"}}},
        .params = {{.name = "interleaved", .values = {0.0, 1.0}, .min = 0.0, .max = 1.0}},
        .row_extent = "T",
        .reduced_extents = {},
        .reach_elements = std::int64_t{1} << 20,
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const std::int64_t T = e.extent("T"), H = e.extent("H"), P = e.extent("P"), Q = e.extent("Q"), D = 2 * P + Q;
    const bool interleaved = e.param_value("interleaved") != 0;
    const auto x = e.input("x");
    const auto cos = e.input("cos");
    const auto sin = e.input("sin");
    auto y = e.output("y");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t h = 0; h < H; ++h) {
        for (std::int64_t j = 0; j < P; ++j) {
          const std::int64_t i1 = h * D + pair_first(j, P, interleaved), i2 = h * D + pair_second(j, P, interleaved);
          const R x1 = x(t, i1), x2 = x(t, i2), c = cos(t, j), s = sin(t, j);
          y(t, i1) = x1 * c - x2 * s;
          y(t, i2) = x2 * c + x1 * s;
        }
        for (std::int64_t q = 2 * P; q < D; ++q) y(t, h * D + q) = x(t, h * D + q);
      }
  }
};

// LibTorch's reference subjects (rope_torch.cpp; builtin_subjects.hpp, torch_subject).
// LibTorch's RoPE as a reference subject of rope: HF transformers' formula in ATen operators, y = x * cos + rotate(x)
// * sin with the tables widened to D (repeated for half-split pairs, repeat-interleaved for interleaved ones), in the
// type promotion of x and the tables, cast to x's dtype. ATen has no fused op. Findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::rope
