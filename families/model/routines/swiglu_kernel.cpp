#include <parity/families/model/routines/swiglu_kernel.hpp>

#include <stdexcept>

#include <parity/families/model/routines/op_output.hpp>

namespace parity::model {
namespace {

// F for ag = [a | g] [M, 2F].
std::int64_t gate_width(const std::string& subject, const Tensor& ag) {
  if (ag.shape().size() != 2 || ag.dim(1) == 0 || ag.dim(1) % 2 != 0)
    throw std::logic_error("swiglu subject " + subject + ": the model's feed-forward gave ag without [a | g] halves");
  return ag.dim(1) / 2;
}

}  // namespace

Primitives with_swiglu_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                               std::shared_ptr<ops::OpSubject> backward) {
  p.swiglu_gate = [subject, forward](const Tensor& ag) {
    const std::int64_t F = gate_width(subject, ag), M = ag.dim(0);  // gate_width checks the rank first
    ops::OpCall call;
    call.extents = {{"T", M}, {"F", F}};
    call.inputs = {{"x", ag}};
    call.output_dtypes = {{"y", DType::f32}};
    ops::OpOutputs out = forward->run(call);
    return float_output(out, "swiglu", subject, "y", {M, F}, "the model's feed-forward");
  };
  p.swiglu_gate_backward = [subject, backward](const Tensor& ag, const Tensor& du) {
    const std::int64_t F = gate_width(subject, ag), M = ag.dim(0);  // gate_width checks the rank first
    if (du.shape() != std::vector<std::int64_t>{M, F})
      throw std::logic_error("swiglu_backward subject " + subject +
                             ": the model's feed-forward gave du of another shape than u");
    ops::OpCall call;
    call.extents = {{"T", M}, {"F", F}};
    call.inputs = {{"x", ag}, {"dy", du}};
    call.output_dtypes = {{"dx", DType::f32}};
    ops::OpOutputs out = backward->run(call);
    return float_output(out, "swiglu_backward", subject, "dx", {M, 2 * F}, "the model's feed-forward");
  };
  return p;
}

}  // namespace parity::model
