// Runs every registered LoRA subject's forward once on one small problem and prints
// "<name>: <first output value>" per subject; exits 1 if a subject's output has the wrong
// shape or none is registered. Only parity's Core component is linked (CMakeLists.txt).
#include <cstdio>

#include <parity/core/tensor.hpp>
#include <parity/subjects/lora_family.hpp>

namespace {

parity::Tensor filled(parity::DType dtype, std::vector<std::int64_t> shape, double step) {
  parity::Tensor t = parity::Tensor::zeros(dtype, std::move(shape));
  for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, step * double(i % 7 - 3));
  return t;
}

}  // namespace

int main() {
  using parity::DType;
  parity::subjects::LoraInputs in{.x = filled(DType::bf16, {2, 8}, 0.25),
                                  .W = filled(DType::bf16, {4, 8}, 0.125),
                                  .A = filled(DType::f32, {2, 8}, 0.5),
                                  .B = filled(DType::f32, {4, 2}, 0.5),
                                  .scale = 0.5f};
  // The registry itself (subject_api): lora_subjects() would be parity's catalog, with its own
  // subjects, which is the LibTorch component's.
  const auto& subjects = parity::subjects::SubjectRegistry<parity::subjects::LoraSubject>::instance().entries();
  for (const auto& info : subjects) {
    parity::Tensor y = info.make()->forward(in);
    if (y.shape() != std::vector<std::int64_t>{2, 4}) {
      std::printf("%s: output shape is not [2, 4]\n", info.name.c_str());
      return 1;
    }
    std::printf("%s: %g\n", info.name.c_str(), y.value_at(0));
  }
  return subjects.empty() ? 1 : 0;
}
