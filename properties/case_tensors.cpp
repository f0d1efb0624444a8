#include <parity/properties/case_tensors.hpp>

#include <parity/core/error.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace parity::properties {
namespace {

Tensor scalar(DType dtype, double v) {
  Tensor t = Tensor::zeros(dtype, {});
  t.set_value(0, v);
  return t;
}

Tensor vector_of(const std::vector<float>& values) {
  Tensor t = Tensor::zeros(DType::f32, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) t.set_value(static_cast<std::int64_t>(i), values[i]);
  return t;
}

}  // namespace

std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) {
  if (c.family == "lora") {
    const auto p = lora::materialise(c);
    return {{"x", p.in.x}, {"W", p.in.W}, {"A", p.in.A}, {"B", p.in.B}, {"dy", p.dy},
            {"scale", scalar(DType::f32, p.in.scale)}};
  }
  if (c.family == "transition") {
    const auto p = transition::materialise(c);
    return {{"x", p.in.x},
            {"v", p.in.v},
            {"eps", p.in.eps},
            {"sigma", vector_of(p.in.sigma)},
            {"sigma_prev", vector_of(p.in.sigma_prev)},
            {"sigma_max", scalar(DType::f32, p.in.sigma_max)},
            {"noise_level", scalar(DType::f64, p.in.noise_level)}};
  }
  throw InputError("case.family: '" + c.family + "' has no exported tensors (lora and transition have)");
}

}  // namespace parity::properties
