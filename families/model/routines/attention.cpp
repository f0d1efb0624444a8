#include <parity/families/model/routines/attention.hpp>

#include <cmath>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>

namespace parity::model {
namespace {

struct Dims {
  std::int64_t B, T, D, H, Dh;
  int rope_dims;
};

Dims dims_of(const AttentionOperands& in) {
  Dims d{in.h.dim(0), in.h.dim(1), in.h.dim(2), 0, in.norm_q.dim(0), static_cast<int>(2 * in.cos.dim(1))};
  d.H = d.D / d.Dh;
  return d;
}

float scale_of(const Dims& d) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d.Dh))); }

// One head-split projection: x [B*T, D] W^T, optionally RMS-normed per head and rotated,
// returned as [B, H, T, Dh]. `pre_norm` (if given) receives the projection before the norm.
Tensor project_heads(const Primitives& p, const Dims& d, const Tensor& x2d, const Tensor& W, const Tensor* norm,
                     const AttentionOperands& in, Tensor* pre_norm) {
  Tensor t = p.linear_forward(x2d, W, nullptr);  // [B*T, D]
  if (norm) {
    if (pre_norm) *pre_norm = t;
    t = p.rms_norm_forward(reshaped(t, {d.B * d.T * d.H, d.Dh}), norm, kRmsEps);
    t = p.rope_forward(reshaped(t, {d.B, d.T, d.H, d.Dh}), in.cos, in.sin, d.rope_dims);
  }
  return swap_dims_1_2(reshaped(t, {d.B, d.T, d.H, d.Dh}));
}

// The gradient that flows back through project_heads to x2d, for g [B, H, T, Dh].
Tensor project_heads_backward(const Primitives& p, const Dims& d, const Tensor& g, const Tensor& W, const Tensor* norm,
                              const AttentionOperands& in, const Tensor& pre_norm) {
  Tensor t = swap_dims_1_2(g);  // [B, T, H, Dh]
  if (norm) {
    t = p.rope_backward_input(t, in.cos, in.sin, d.rope_dims);
    t = p.rms_norm_backward_input(reshaped(pre_norm, {d.B * d.T * d.H, d.Dh}), norm, kRmsEps,
                                  reshaped(t, {d.B * d.T * d.H, d.Dh}));
  }
  return p.linear_backward_input(reshaped(t, {d.B * d.T, d.D}), W);
}

}  // namespace

AttentionOperands AttentionOperands::from(const std::vector<Tensor>& o, std::size_t f) {
  if (o.size() < f + kCount)
    throw InputError("attention: expects 9 operands (h, wq, wk, wv, wo, norm_q, norm_k, cos, sin)");
  return {o[f], o[f + 1], o[f + 2], o[f + 3], o[f + 4], o[f + 5], o[f + 6], o[f + 7], o[f + 8]};
}

std::vector<Tensor> AttentionOperands::list() const { return {h, wq, wk, wv, wo, norm_q, norm_k, cos, sin}; }

AttentionOperands AttentionOperands::example() {
  return {example_operand(DType::f32, {1, 5, 8}, 1), example_operand(DType::f32, {8, 8}, 2),
          example_operand(DType::f32, {8, 8}, 3),    example_operand(DType::f32, {8, 8}, 4),
          example_operand(DType::f32, {8, 8}, 5),    example_operand(DType::f32, {4}, 6),
          example_operand(DType::f32, {4}, 7),       example_operand(DType::f32, {5, 1}, 8),
          example_operand(DType::f32, {5, 1}, 9)};
}

Tensor attention_forward(const Primitives& p, const AttentionOperands& in) {
  const Dims d = dims_of(in);
  const Tensor x2d = reshaped(in.h, {d.B * d.T, d.D});
  const Tensor q = project_heads(p, d, x2d, in.wq, &in.norm_q, in, nullptr);
  const Tensor k = project_heads(p, d, x2d, in.wk, &in.norm_k, in, nullptr);
  const Tensor v = project_heads(p, d, x2d, in.wv, nullptr, in, nullptr);
  const Tensor o = swap_dims_1_2(p.sdpa_forward(q, k, v, scale_of(d)));  // [B, T, H, Dh]
  return reshaped(p.linear_forward(reshaped(o, {d.B * d.T, d.D}), in.wo, nullptr), {d.B, d.T, d.D});
}

Tensor attention_backward_input(const Primitives& p, const AttentionOperands& in, const Tensor& d_out) {
  const Dims d = dims_of(in);
  const Tensor x2d = reshaped(in.h, {d.B * d.T, d.D});
  Tensor q_pre, k_pre;
  const Tensor q = project_heads(p, d, x2d, in.wq, &in.norm_q, in, &q_pre);
  const Tensor k = project_heads(p, d, x2d, in.wk, &in.norm_k, in, &k_pre);
  const Tensor v = project_heads(p, d, x2d, in.wv, nullptr, in, nullptr);
  const Tensor d_o = p.linear_backward_input(reshaped(d_out, {d.B * d.T, d.D}), in.wo);  // [B*T, D]
  const auto g = p.sdpa_backward(q, k, v, scale_of(d), swap_dims_1_2(reshaped(d_o, {d.B, d.T, d.H, d.Dh})));
  const Tensor dq = project_heads_backward(p, d, g.dq, in.wq, &in.norm_q, in, q_pre);
  const Tensor dk = project_heads_backward(p, d, g.dk, in.wk, &in.norm_k, in, k_pre);
  const Tensor dv = project_heads_backward(p, d, g.dv, in.wv, nullptr, in, Tensor());
  return reshaped(add_f32(add_f32(dq, dk), dv), {d.B, d.T, d.D});
}

}  // namespace parity::model
