#include <parity/properties/case_tensors.hpp>

#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace parity::properties {
namespace {

Tensor vector_of(const std::vector<float>& values) {
  Tensor t = Tensor::zeros(DType::f32, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) t.set_value(static_cast<std::int64_t>(i), values[i]);
  return t;
}

}  // namespace

Tensor scalar_tensor(DType dtype, double v) {
  Tensor t = Tensor::zeros(dtype, {});
  t.set_value(0, v);
  return t;
}

NamedTensors lora_case_tensors(const Case& c) {
  const auto p = lora::materialise(c);
  return {{"x", p.in.x}, {"W", p.in.W}, {"A", p.in.A},
          {"B", p.in.B}, {"dy", p.dy},  {"scale", scalar_tensor(DType::f32, p.in.scale)}};
}

NamedTensors transition_case_tensors(const Case& c) {
  const auto p = transition::materialise(c);
  return {{"x", p.in.x},
          {"v", p.in.v},
          {"eps", p.in.eps},
          {"sigma", vector_of(p.in.sigma)},
          {"sigma_prev", vector_of(p.in.sigma_prev)},
          {"sigma_max", scalar_tensor(DType::f32, p.in.sigma_max)},
          {"noise_level", scalar_tensor(DType::f64, p.in.noise_level)}};
}

}  // namespace parity::properties
