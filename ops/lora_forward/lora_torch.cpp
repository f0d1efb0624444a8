// LibTorch's LoRA linear (lora_kernel.hpp), as PEFT's `Linear.forward` computes it: the reference
// subjects torch-cpu and torch-cuda of lora_forward and lora_backward. The formulation (bf16
// operands upcast to float32, float32 GEMMs, one bf16 rounding of the float32 result) has the
// accuracy contract of parity's kernel (lora_arith.cuh); its reduction orders are LibTorch's and
// the BLAS's own, so agreement is expected within the bound, not bit for bit.
#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/linear.h>

#include <parity/core/error.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/ops/lora_forward/lora_subjects.hpp>
#include <parity/subjects/torch/convert.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity::ops::lora_forward {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

class LoraTorch : public OpSubject {
 public:
  explicit LoraTorch(bool on_cuda) : device_(on_cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU)) {
    if (const std::string reason = torch_unavailable_reason(on_cuda); !reason.empty())
      throw InputError("torch-cuda lora subject: " + reason);
  }

 protected:
  // The operand, with its strides, on this subject's device.
  at::Tensor on_device(const Tensor& t) const { return to_aten(t).to(device_); }

  // base + s * low, in float32, before the output rounding.
  at::Tensor forward_f32(const LoraOperandRefs& in, const at::Tensor& x, const at::Tensor& A,
                         const at::Tensor& B) const {
    const at::Tensor base = at::linear(x, on_device(in.W).to(at::kFloat));
    const at::Tensor low = at::linear(at::linear(x, A), B);
    return base.add(low.mul(in.scale));
  }

 private:
  at::Device device_;
};

class ForwardTorch final : public LoraTorch {
 public:
  using LoraTorch::LoraTorch;
  OpOutputs run(const OpCall& call) override {
    const LoraOperandRefs in = operand_refs_of(call);
    at::NoGradGuard no_grad;
    const at::Tensor x = on_device(in.x).to(at::kFloat);
    return {{"y", from_aten(forward_f32(in, x, on_device(in.A), on_device(in.B)).to(at::kBFloat16))}};
  }
};

class BackwardTorch final : public LoraTorch {
 public:
  using LoraTorch::LoraTorch;
  OpOutputs run(const OpCall& call) override {
    const LoraOperandRefs in = operand_refs_of(call);
    const Tensor& dy = call.input("dy");
    check_dy(in, dy);
    at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
    // Leaves: x (upcast) and the adapter. W stays without requires_grad: the base is frozen.
    const at::Tensor x = on_device(in.x).to(at::kFloat).requires_grad_();
    const at::Tensor A = on_device(in.A).requires_grad_();
    const at::Tensor B = on_device(in.B).requires_grad_();
    forward_f32(in, x, A, B).backward(on_device(dy).to(at::kFloat));
    return {{"dx", from_aten(x.grad().to(at::kBFloat16))}, {"dA", from_aten(A.grad())}, {"dB", from_aten(B.grad())}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_torch_forward(bool on_cuda) { return std::make_unique<ForwardTorch>(on_cuda); }
std::unique_ptr<OpSubject> make_torch_backward(bool on_cuda) { return std::make_unique<BackwardTorch>(on_cuda); }

OpSubjectInfo torch_reference(Pass pass, bool on_cuda) {
  const bool forward = pass == Pass::forward;
  return {.name = on_cuda ? "torch-cuda" : "torch-cpu",
          .backend = on_cuda ? "torch-cuda" : "torch-cpu",
          .kind = subjects::SubjectKind::reference,
          .description = std::string("LibTorch linear + LoRA path + autograd, ") + (on_cuda ? "CUDA" : "CPU"),
          .unavailable_reason = [on_cuda] { return torch_unavailable_reason(on_cuda); },
          .make = [forward, on_cuda] { return forward ? make_torch_forward(on_cuda) : make_torch_backward(on_cuda); }};
}

std::string torch_unavailable_reason(bool on_cuda) {
  return on_cuda ? subjects::torch_impl::torch_cuda_unavailable_reason() : "";
}

}  // namespace parity::ops::lora_forward
