#pragma once
// The attention node composed of the model's primitives (primitives.hpp: the projections
// on parity's linear kernel, the attention on its sdpa kernels; docs/math.md, "The joint
// audio-video DiT"): q, k, v = h Wq^T, h Wk^T,
// h Wv^T; per-head RMSNorm (weights norm_q, norm_k, eps 1e-5) on q and k; rotate-half RoPE on
// the first rope_dims of each head; non-causal softmax attention with scale 1/sqrt(Dh); the
// output projection Wo. No biases.
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::model {

inline constexpr float kRmsEps = 1e-5f;

// The operands, in the order the attention routine takes them.
struct AttentionOperands {
  Tensor h;               // [B, T, D] f32
  Tensor wq, wk, wv, wo;  // [D, D] f32
  Tensor norm_q, norm_k;  // [Dh] f32; heads = D / Dh
  Tensor cos, sin;        // [T, rope_dims/2] f32
  static constexpr int kCount = 9;
  static AttentionOperands from(const std::vector<Tensor>& operands, std::size_t first = 0);
  std::vector<Tensor> list() const;
  // A small example (B 1, T 5, D 8, two heads of 4, rope on 2 dims) for the routines' self-checks.
  static AttentionOperands example();
};

Tensor attention_forward(const Primitives& p, const AttentionOperands& in);
// dL/dh for dL/d(out) = d_out [B, T, D] (the forward is recomputed).
Tensor attention_backward_input(const Primitives& p, const AttentionOperands& in, const Tensor& d_out);

}  // namespace parity::model
