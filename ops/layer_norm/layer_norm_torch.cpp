// The only layer_norm source that includes LibTorch (ATen's per-operator headers).
#include <parity/ops/layer_norm/layer_norm_subjects.hpp>

#include <ATen/ops/layer_norm.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::layer_norm {
namespace {

class TorchCpu : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    using subjects::torch_impl::to_aten;
    // c10::optional: std::optional from LibTorch 2.x on, a type of its own in 1.13.
    const auto optional = [&](const char* name) -> c10::optional<at::Tensor> {
      if (!call.has_input(name)) return c10::nullopt;
      return to_aten(call.input(name));
    };
    const at::Tensor x = to_aten(call.input("x"));
    return {{"y", subjects::torch_impl::from_aten(
                      at::layer_norm(x, {call.extent("D")}, optional("w"), optional("b"), call.param("eps")))}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return std::make_unique<TorchCpu>(); }

}  // namespace parity::ops::layer_norm
