// A deliberately broken copy of the host path: it forgets the LoRA scale s = alpha / r, a bug a
// real kernel can have. Registered as "my-lora-host-broken"; its property tests must fail
// (WILL_FAIL in CMakeLists.txt), which shows that parity catches such a bug in this kernel.
#include "my_lora.hpp"

namespace my_lora {
namespace {

using parity::ops::OpCall;
using parity::ops::OpOutputs;

// `kernel` run with the scale forgotten (1 whatever the call's).
class ScaleForgotten final : public OpSubject {
 public:
  explicit ScaleForgotten(std::unique_ptr<OpSubject> kernel) : kernel_(std::move(kernel)) {}
  OpOutputs run(const OpCall& call) override {
    OpCall unscaled = call;
    unscaled.params["scale"] = 1.0;
    return kernel_->run(unscaled);
  }

 private:
  std::unique_ptr<OpSubject> kernel_;
};

}  // namespace

std::unique_ptr<OpSubject> make_broken_host_forward() { return std::make_unique<ScaleForgotten>(make_host_forward()); }
std::unique_ptr<OpSubject> make_broken_host_backward() {
  return std::make_unique<ScaleForgotten>(make_host_backward());
}

}  // namespace my_lora
