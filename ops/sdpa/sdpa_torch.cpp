// The only sdpa source that includes LibTorch (ATen's per-operator headers).
#include <parity/ops/sdpa/sdpa_torch.hpp>

#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu_backward.h>

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

class TorchCpu : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Shape s(call);
    const auto [o, lse] = at::_scaled_dot_product_flash_attention_for_cpu(
        s.heads(call.input("q")), s.heads(call.input("k")), s.heads(call.input("v")), 0.0, call.param("causal") != 0, {},
        call.param("scale"));
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
    const auto [o, lse] = at::_scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, causal, {}, call.param("scale"));
    const auto [dq, dk, dv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        s.heads(call.input("do")), q, k, v, o, lse, 0.0, causal, {}, call.param("scale"));
    const DType t = call.output_dtype("dq");
    return {{"dq", s.flat(dq, t)}, {"dk", s.flat(dk, t)}, {"dv", s.flat(dv, t)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return std::make_unique<TorchCpu>(); }
std::unique_ptr<OpSubject> make_torch_cpu_backward() { return std::make_unique<TorchCpuBackward>(); }

}  // namespace parity::ops::sdpa
