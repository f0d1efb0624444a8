#include <parity/subjects/torch/lora_torch.hpp>

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/linear.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <parity/core/error.hpp>
#include <parity/subjects/torch/convert.hpp>

namespace parity::subjects::torch_impl {
namespace {

// The formulation: bf16 operands upcast to float32, float32 GEMMs, one bf16 rounding of the
// float32 result. It is chosen so that its accuracy contract matches parity's kernel
// (lora_arith.cuh: float32 chains, one bf16 rounding); the reduction orders are
// LibTorch's / BLAS's own, so agreement is expected within the bound, not bit for bit.
class LoraTorch final : public LoraSubject {
 public:
  explicit LoraTorch(bool on_cuda) : device_(on_cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU)) {}

  Tensor forward(const LoraInputs& in) override {
    validate_lora_inputs(in);
    at::NoGradGuard no_grad;
    const at::Tensor x = on_device(in.x).to(at::kFloat);
    return from_aten(forward_f32(in, x, on_device(in.A), on_device(in.B)).to(at::kBFloat16));
  }

  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    validate_lora_inputs(in);
    validate_lora_dy(in, dy);
    at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
    // Leaves: x (upcast) and the adapter. W stays without requires_grad: the base is frozen.
    const at::Tensor x = on_device(in.x).to(at::kFloat).requires_grad_();
    const at::Tensor A = on_device(in.A).requires_grad_();
    const at::Tensor B = on_device(in.B).requires_grad_();
    forward_f32(in, x, A, B).backward(on_device(dy).to(at::kFloat));
    return LoraGradients{from_aten(x.grad().to(at::kBFloat16)), from_aten(A.grad()), from_aten(B.grad()), std::nullopt};
  }

  LoraPath last_path() const override { return {device_.is_cuda() ? "torch-cuda" : "torch-cpu"}; }

 private:
  // The operand, with its strides, on this subject's device.
  at::Tensor on_device(const Tensor& t) const { return to_aten(t).to(device_); }

  // base + s * low, in float32, before the output rounding.
  at::Tensor forward_f32(const LoraInputs& in, const at::Tensor& x, const at::Tensor& A, const at::Tensor& B) const {
    const at::Tensor base = at::linear(x, on_device(in.W).to(at::kFloat));
    const at::Tensor low = at::linear(at::linear(x, A), B);
    return base.add(low.mul(in.scale));
  }

  at::Device device_;
};

}  // namespace

std::unique_ptr<LoraSubject> make_lora_torch(bool on_cuda) {
  if (const std::string reason = lora_torch_unavailable_reason(on_cuda); !reason.empty()) {
    throw InputError("torch-cuda lora subject: " + reason);
  }
  return std::make_unique<LoraTorch>(on_cuda);
}

std::string lora_torch_unavailable_reason(bool on_cuda) {
  if (!on_cuda) return "";
  // libtorch_cuda registers the CUDA device guard when it is loaded: a CPU-only LibTorch
  // never does.
  if (!c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA)) return "LibTorch built without CUDA";
  if (!torch::cuda::is_available()) return "no CUDA device";
  return "";
}

std::string torch_version_text() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

}  // namespace parity::subjects::torch_impl
