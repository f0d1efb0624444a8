// The only sdpa source that includes LibTorch (ATen's per-operator headers).
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/sdpa/sdpa_op.hpp>

// LibTorch 2.2 on: the fused CPU kernel and its backward. LibTorch 1.13 has no fused CPU
// attention: there the subjects compose what its math path computes (softmax(q k^T scale + mask)
// v, in float32, with the logsumexp beside it) from ATen's operators, and autograd differentiates
// that composition for the backward.
#if __has_include(<ATen/ops/_scaled_dot_product_flash_attention_for_cpu.h>)
#define PARITY_SDPA_FUSED_CPU 1
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu_backward.h>
#else
#define PARITY_SDPA_FUSED_CPU 0
#include <ATen/core/grad_mode.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/softmax.h>
#endif

#include <ATen/ops/cat.h>

#include <limits>
#include <tuple>
#include <vector>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::sdpa {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

// An output in `dtype`: q, k, v and their gradients are [B, H, S, D] and [B, Hkv, S, D] (their
// strides say the layout), the logsumexp [B, H, S], as the ATen operators take and give them.
Tensor cast(const at::Tensor& x, DType dtype) {
  return from_aten(x.to(dtype == DType::bf16 ? at::kBFloat16 : dtype == DType::f64 ? at::kDouble : at::kFloat));
}

// Attention's output and logsumexp over [B, H, S, D] operands.
std::tuple<at::Tensor, at::Tensor> attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, bool causal,
                                             double scale) {
#if PARITY_SDPA_FUSED_CPU
  return at::_scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, causal, {}, scale);
#else
  at::Tensor scores = at::matmul(q.to(at::kFloat), k.to(at::kFloat).transpose(-2, -1)).mul(scale);
  if (causal) {
    const std::int64_t S = q.size(-2);
    scores = scores.masked_fill(at::ones({S, S}, at::TensorOptions().dtype(at::kBool)).triu(1),
                                -std::numeric_limits<float>::infinity());
  }
  return {at::matmul(at::softmax(scores, -1), v.to(at::kFloat)), at::logsumexp(scores, -1)};
#endif
}

// A key/value operand [B, Hkv, S, D] with each head repeated for the G query heads that read
// it, [B, H, S, D]: what at::scaled_dot_product_attention's enable_gqa does (LibTorch 2.5 on)
// before its math path, and what the fused CPU kernel (which takes equal head counts) and
// LibTorch 1.13 need. Autograd through it sums a head's gradient over its group.
at::Tensor grouped(const at::Tensor& kv, const OpCall& call) {
  const std::int64_t G = call.extent("G");
  return G == 1 ? kv : kv.repeat_interleave(G, 1);
}

#if PARITY_SDPA_FUSED_CPU
// The gradient of a key/value operand from the gradient of its grouped copy: each head's G
// copies summed (LibTorch's sum, in its order). Without the fused kernel autograd sums them.
at::Tensor ungrouped(const at::Tensor& d, const OpCall& call) {
  const std::int64_t G = call.extent("G");
  if (G == 1) return d;
  return d.reshape({d.size(0), d.size(1) / G, G, d.size(2), d.size(3)}).sum(2);
}
#endif

OpOutputs torch_cpu(const OpCall& call) {
  const auto [o, lse] =
      attention(to_aten(call.input("q")), grouped(to_aten(call.input("k")), call),
                grouped(to_aten(call.input("v")), call), call.param("causal") != 0, call.param("scale"));
  return {{"o", cast(o, call.output_dtype("o"))}, {"lse", cast(lse, call.output_dtype("lse"))}};
}

OpOutputs torch_cpu_backward(const OpCall& call) {
  const at::Tensor q = to_aten(call.input("q")), k = to_aten(call.input("k")), v = to_aten(call.input("v"));
  const bool causal = call.param("causal") != 0;
  const at::Tensor d_o = to_aten(call.input("do"));
#if PARITY_SDPA_FUSED_CPU
  const at::Tensor kg = grouped(k, call), vg = grouped(v, call);
  const auto [o, lse] = attention(q, kg, vg, causal, call.param("scale"));
  const auto [dq, dkg, dvg] = at::_scaled_dot_product_flash_attention_for_cpu_backward(d_o, q, kg, vg, o, lse, 0.0,
                                                                                       causal, {}, call.param("scale"));
  const at::Tensor dk = ungrouped(dkg, call), dv = ungrouped(dvg, call);
#else
  at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
  const at::Tensor qf = q.to(at::kFloat).detach().requires_grad_(), kf = k.to(at::kFloat).detach().requires_grad_(),
                   vf = v.to(at::kFloat).detach().requires_grad_();
  std::get<0>(attention(qf, grouped(kf, call), grouped(vf, call), causal, call.param("scale")))
      .backward(d_o.to(at::kFloat));
  const at::Tensor dq = qf.grad(), dk = kf.grad(), dv = vf.grad();
#endif
  const DType t = call.output_dtype("dq");
  return {{"dq", cast(dq, t)}, {"dk", cast(dk, t)}, {"dv", cast(dv, t)}};
}

// Each packed sequence b, q [L_b, H, D] and k, v [L_b, Hkv, D] from cu_seqlens[b], as a batch
// of one [1, H, L_b, D]; o and lse back as [L_b, H, D] and [L_b, H], concatenated in order.
OpOutputs torch_cpu_varlen(const OpCall& call) {
  const std::vector<std::int64_t> cu = call.cu_seqlens("S");
  const at::Tensor q = to_aten(call.input("q")), k = to_aten(call.input("k")), v = to_aten(call.input("v"));
  const auto sequence = [&](const at::Tensor& x, std::size_t b) {
    return x.narrow(0, cu[b], cu[b + 1] - cu[b]).transpose(0, 1).unsqueeze(0);
  };
  std::vector<at::Tensor> os, lses;
  for (std::size_t b = 0; b + 1 < cu.size(); ++b) {
    const auto [o, lse] = attention(sequence(q, b), grouped(sequence(k, b), call), grouped(sequence(v, b), call),
                                    call.param("causal") != 0, call.param("scale"));
    os.push_back(o.squeeze(0).transpose(0, 1));
    lses.push_back(lse.squeeze(0).transpose(0, 1));
  }
  return {{"o", cast(at::cat(os), call.output_dtype("o"))}, {"lse", cast(at::cat(lses), call.output_dtype("lse"))}};
}

}  // namespace

std::string torch_kernel() {
  return PARITY_SDPA_FUSED_CPU ? "its flash attention for CPU"
                               : "matmul, softmax and logsumexp: LibTorch 1.13 has no fused CPU attention";
}

std::unique_ptr<OpSubject> make_torch_cpu() { return make_op_subject<RunSubject<&torch_cpu>>(); }
std::unique_ptr<OpSubject> make_torch_cpu_backward() { return make_op_subject<RunSubject<&torch_cpu_backward>>(); }
std::unique_ptr<OpSubject> make_torch_cpu_varlen() { return make_op_subject<RunSubject<&torch_cpu_varlen>>(); }

}  // namespace parity::ops::sdpa
