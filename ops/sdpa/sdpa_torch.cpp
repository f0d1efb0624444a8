// The only sdpa source that includes LibTorch (ATen's per-operator headers).
#include <parity/ops/sdpa/sdpa_subjects.hpp>

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

#include <limits>
#include <tuple>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::sdpa {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

struct Shape {
  std::int64_t B, H, S, D;
  bool bshd;
  explicit Shape(const OpCall& c)
      : B(c.extent("B")), H(c.extent("H")), S(c.extent("S")), D(c.extent("D")), bshd(c.param("layout") != 0) {}

  // The [B, H, S, D] view of a [B, S*H*D] operand, strides and offset kept.
  at::Tensor heads(const Tensor& t) const {
    const at::Tensor x = to_aten(t);
    if (!bshd) return x.unflatten(1, {H, S, D});
    return x.unflatten(1, {S, H, D}).transpose(1, 2);
  }
  // A [B, H, S, D] result back as [B, S*H*D] in the case's layout, in `dtype`.
  Tensor flat(const at::Tensor& x, DType dtype) const {
    const at::Tensor y = bshd ? x.transpose(1, 2) : x;
    return cast(y.contiguous().reshape({B, S * H * D}), dtype);
  }
  static Tensor cast(const at::Tensor& x, DType dtype) {
    return from_aten(x.to(dtype == DType::bf16 ? at::kBFloat16 : dtype == DType::f64 ? at::kDouble : at::kFloat));
  }
};

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

class TorchCpu : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Shape s(call);
    const auto [o, lse] = attention(s.heads(call.input("q")), s.heads(call.input("k")), s.heads(call.input("v")),
                                    call.param("causal") != 0, call.param("scale"));
    return {{"o", s.flat(o, call.output_dtype("o"))},
            {"lse", Shape::cast(lse.contiguous().reshape({s.B, s.H * s.S}), call.output_dtype("lse"))}};
  }
};

class TorchCpuBackward : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Shape s(call);
    const at::Tensor q = s.heads(call.input("q")), k = s.heads(call.input("k")), v = s.heads(call.input("v"));
    const bool causal = call.param("causal") != 0;
    const at::Tensor d_o = s.heads(call.input("do"));
#if PARITY_SDPA_FUSED_CPU
    const auto [o, lse] = attention(q, k, v, causal, call.param("scale"));
    const auto [dq, dk, dv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(d_o, q, k, v, o, lse, 0.0,
                                                                                       causal, {}, call.param("scale"));
#else
    at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
    const at::Tensor qf = q.to(at::kFloat).detach().requires_grad_(), kf = k.to(at::kFloat).detach().requires_grad_(),
                     vf = v.to(at::kFloat).detach().requires_grad_();
    std::get<0>(attention(qf, kf, vf, causal, call.param("scale"))).backward(d_o.to(at::kFloat));
    const at::Tensor dq = qf.grad(), dk = kf.grad(), dv = vf.grad();
#endif
    const DType t = call.output_dtype("dq");
    return {{"dq", s.flat(dq, t)}, {"dk", s.flat(dk, t)}, {"dv", s.flat(dv, t)}};
  }
};

}  // namespace

std::string torch_kernel() {
  return PARITY_SDPA_FUSED_CPU ? "its flash attention for CPU"
                               : "matmul, softmax and logsumexp: LibTorch 1.13 has no fused CPU attention";
}

std::unique_ptr<OpSubject> make_torch_cpu() { return std::make_unique<TorchCpu>(); }
std::unique_ptr<OpSubject> make_torch_cpu_backward() { return std::make_unique<TorchCpuBackward>(); }

}  // namespace parity::ops::sdpa
