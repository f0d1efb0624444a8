// The only linear source that includes LibTorch (ATen's per-operator headers).
#include <parity/ops/linear/linear_subjects.hpp>

#include <ATen/ops/linear.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::linear {
namespace {

class TorchCpu : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    using subjects::torch_impl::to_aten;
    const at::Tensor x = to_aten(call.input("x")), w = to_aten(call.input("W"));
    // c10::optional: std::optional from LibTorch 2.x on, a type of its own in 1.13.
    const c10::optional<at::Tensor> b =
        call.has_input("b") ? c10::optional<at::Tensor>(to_aten(call.input("b"))) : c10::nullopt;
    return {{"y", subjects::torch_impl::from_aten(at::linear(x, w, b))}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return std::make_unique<TorchCpu>(); }

}  // namespace parity::ops::linear
