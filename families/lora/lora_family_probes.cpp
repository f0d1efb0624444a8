#include <parity/families/lora/lora_family_probes.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include <parity/ops/lora_forward/lora_host.hpp>

namespace parity::properties::lora {
namespace {

using Twin = ops::lora_forward::BackwardHost<ops::lora_forward::StandardArithmetic>;

// The kernel's gradients, and a gradient dW = dy^T x for the frozen base weight beside them.
class BaseWeightGradient final : public Twin {
 public:
  ops::OpOutputs run(const ops::OpCall& call) override {
    ops::OpOutputs out = Twin::run(call);
    const Tensor &x = call.input("x"), &dy = call.input("dy");
    const std::int64_t T = x.dim(0), K = x.dim(1), N = dy.dim(1);
    Tensor dW = Tensor::zeros(DType::f32, {N, K});
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < T; ++t)
          acc = fmaf(static_cast<float>(dy.value_at(t * N + n)), static_cast<float>(x.value_at(t * K + k)), acc);
        dW.set_value(n * K + k, acc);
      }
    out.emplace("dW", std::move(dW));
    return out;
  }
};

// The kernel's gradients, but a backward that "optimises" B = 0: it returns dA = dB = 0 without
// computing them (dA is 0 there, but dB = s dy^T h is not).
class SkipsAdapterBackwardAtZeroB final : public Twin {
 public:
  ops::OpOutputs run(const ops::OpCall& call) override {
    ops::OpOutputs out = Twin::run(call);
    const Tensor& B = call.input("B");
    for (std::int64_t i = 0; i < B.numel(); ++i)
      if (B.value_at(i) != 0.0) return out;
    for (const char* name : {"dA", "dB"}) out.at(name) = Tensor::zeros(out.at(name).dtype(), out.at(name).shape());
    return out;
  }
};

ops::OpSubjectInfo probe(std::string name, std::string description, std::unique_ptr<ops::OpSubject> (*make)()) {
  return {.name = std::move(name),
          .backend = "host",
          .kind = subjects::SubjectKind::probe,
          .description = std::move(description),
          .unavailable_reason = [] { return std::string(); },
          .make = make};
}

}  // namespace

const std::vector<ops::OpSubjectInfo>& family_probes() {
  static const std::vector<ops::OpSubjectInfo> all = {
      probe("probe-base-gradient", "gives the frozen base weight W a gradient",
            &ops::make_op_subject<BaseWeightGradient>),
      probe("probe-skips-adapter-backward-at-zero-B", "returns dA = dB = 0 without computing them when B is all zero",
            &ops::make_op_subject<SkipsAdapterBackwardAtZeroB>)};
  return all;
}

}  // namespace parity::properties::lora
