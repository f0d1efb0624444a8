// A deliberately broken copy of the host path: it forgets the LoRA scale s = alpha / r, a bug a
// real kernel can have. Registered as "my-lora-host-broken"; its property test must fail
// (WILL_FAIL in CMakeLists.txt), which shows that parity catches such a bug in this kernel.
#include "my_lora.hpp"

namespace my_lora {
namespace {

using parity::Tensor;
using parity::subjects::LoraGradients;
using parity::subjects::LoraInputs;

LoraInputs unscaled(LoraInputs in) {
  in.scale = 1.0f;
  return in;
}

class ScaleForgotten final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override { return host_->forward(unscaled(in)); }
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override { return host_->backward(unscaled(in), dy); }

 private:
  std::unique_ptr<LoraSubject> host_ = make_host();
};

}  // namespace

std::unique_ptr<LoraSubject> make_broken_host() { return std::make_unique<ScaleForgotten>(); }

}  // namespace my_lora
