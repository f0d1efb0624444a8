// Runs every registered subject of lora_forward once on one small call and prints
// "<name>: <first output value>" per subject; exits 1 if a subject's y has the wrong shape or
// none is registered. Only parity's Core component is linked (CMakeLists.txt): the registry
// holds this program's subjects alone, as parity's own are the LibTorch component's.
#include <cstdio>

#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace {

parity::Tensor filled(parity::DType dtype, std::vector<std::int64_t> shape, double step) {
  parity::Tensor t = parity::Tensor::zeros(dtype, std::move(shape));
  for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, step * double(i % 7 - 3));
  return t;
}

}  // namespace

int main() {
  using parity::DType;
  parity::ops::OpCall call{.extents = {{"T", 2}, {"K", 8}, {"N", 4}, {"r", 2}},
                           .inputs = {{"x", filled(DType::bf16, {2, 8}, 0.25)},
                                      {"W", filled(DType::bf16, {4, 8}, 0.125)},
                                      {"A", filled(DType::f32, {2, 8}, 0.5)},
                                      {"B", filled(DType::f32, {4, 2}, 0.5)}},
                           .params = {{"scale", 0.5}},
                           .output_dtypes = {{"y", DType::bf16}}};
  const auto& subjects = parity::ops::op_subjects("lora_forward");
  for (const auto& info : subjects) {
    const parity::Tensor y = info.make()->run(call).at("y");
    if (y.shape() != std::vector<std::int64_t>{2, 4}) {
      std::printf("%s: y's shape is not [2, 4]\n", info.name.c_str());
      return 1;
    }
    std::printf("%s: %g\n", info.name.c_str(), y.value_at(0));
  }
  return subjects.empty() ? 1 : 0;
}
