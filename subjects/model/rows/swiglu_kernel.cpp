#include <parity/subjects/model/rows/swiglu_kernel.hpp>

#include <stdexcept>

namespace parity::model {

Primitives with_swiglu_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel) {
  p.swiglu_gate = [subject, kernel](const Tensor& ag) {
    if (ag.shape().size() != 2 || ag.dim(1) == 0 || ag.dim(1) % 2 != 0)
      throw std::logic_error("swiglu subject " + subject + ": the model's feed-forward gave ag without [a | g] halves");
    const std::int64_t M = ag.dim(0), F = ag.dim(1) / 2;
    ops::OpCall call;
    call.extents = {{"T", M}, {"F", F}};
    call.inputs = {{"x", ag}};
    call.output_dtypes = {{"y", DType::f32}};
    ops::OpOutputs out = kernel->run(call);
    const auto y = out.find("y");
    if (y == out.end() || y->second.dtype() != DType::f32 || y->second.shape() != std::vector<std::int64_t>{M, F})
      throw std::runtime_error("swiglu subject " + subject + " did not return y, float32 [" + std::to_string(M) + ", " +
                               std::to_string(F) + "], for the model's feed-forward");
    return std::move(y->second);
  };
  return p;
}

}  // namespace parity::model
