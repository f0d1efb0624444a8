#include <parity/properties/case_tensors.hpp>

#include <parity/properties/lora/lora_problem.hpp>

namespace parity::properties {

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

}  // namespace parity::properties
