#include <parity/families/model/routines/rms_norm_kernels.hpp>

#include <stdexcept>

#include <parity/families/model/routines/op_output.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>

namespace parity::model {
namespace {

// The op call on x as rows [T, C] with weight w (ones for nullptr) and eps.
ops::OpCall norm_call(const std::string& subject, const Tensor& x, const Tensor* w, float eps) {
  const std::int64_t C = x.shape().empty() ? 0 : x.shape().back();
  if (C == 0 || (w && w->shape() != std::vector<std::int64_t>{C}))
    throw std::logic_error("rms_norm subject " + subject + ": the model gave x and w of mismatched shapes");
  Tensor weight = w ? *w : Tensor::zeros(DType::f32, {C});
  if (!w)
    for (std::int64_t i = 0; i < C; ++i) weight.set_value(i, 1.0);
  const std::int64_t T = x.numel() / C;
  ops::OpCall call;
  call.extents = {{"T", T}, {"D", C}};
  call.inputs = {{"x", reshaped(x, {T, C})}, {"w", std::move(weight)}};
  call.params = {{"eps", eps}};
  return call;
}

// Output `name` of `kernel` on `call`, in x's shape.
Tensor normed(ops::OpSubject& kernel, const std::string& op, const std::string& subject, ops::OpCall& call,
              const std::string& name, const Tensor& x) {
  call.output_dtypes = {{name, DType::f32}};
  ops::OpOutputs out = kernel.run(call);
  return reshaped(
      float_output(out, op, subject, name, {call.extents.at("T"), call.extents.at("D")}, "the model's RMSNorm"),
      x.shape());
}

}  // namespace

Primitives with_rms_norm_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                                 std::shared_ptr<ops::OpSubject> backward) {
  p.rms_norm_forward = [subject, forward](const Tensor& x, const Tensor* w, float eps) {
    ops::OpCall call = norm_call(subject, x, w, eps);
    return normed(*forward, "rms_norm", subject, call, "y", x);
  };
  p.rms_norm_backward_input = [subject, backward](const Tensor& x, const Tensor* w, float eps, const Tensor& dy) {
    if (dy.shape() != x.shape())
      throw std::logic_error("rms_norm_backward subject " + subject + ": the model gave dy of another shape than x");
    ops::OpCall call = norm_call(subject, x, w, eps);
    call.inputs.emplace("dy", reshaped(dy, {call.extents.at("T"), call.extents.at("D")}));
    return normed(*backward, "rms_norm_backward", subject, call, "dx", x);
  };
  return p;
}

}  // namespace parity::model
