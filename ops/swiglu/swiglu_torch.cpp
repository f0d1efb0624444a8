// The only swiglu source that includes LibTorch (ATen's per-operator headers).
#include <parity/ops/swiglu/swiglu_torch.hpp>

#include <ATen/ops/mul.h>
#include <ATen/ops/silu.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::swiglu {
namespace {

class TorchCpu : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const at::Tensor x = subjects::torch_impl::to_aten(call.input("x"));
    const std::int64_t F = call.extent("F");
    return {{"y", subjects::torch_impl::from_aten(at::mul(at::silu(x.narrow(1, 0, F)), x.narrow(1, F, F)))}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return std::make_unique<TorchCpu>(); }

}  // namespace parity::ops::swiglu
