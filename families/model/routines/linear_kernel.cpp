#include <parity/families/model/routines/linear_kernel.hpp>

#include <stdexcept>

#include <parity/families/model/routines/op_output.hpp>

namespace parity::model {

Tensor linear_by(ops::OpSubject& kernel, const std::string& subject, const Tensor& x, const Tensor& W,
                 const Tensor* b) {
  if (x.shape().size() != 2 || W.shape().size() != 2 || W.dim(1) != x.dim(1) ||
      (b && b->shape() != std::vector<std::int64_t>{W.dim(0)}))
    throw std::logic_error("linear subject " + subject + ": a model projection gave x, W and b of mismatched shapes");
  ops::OpCall call;
  call.extents = {{"T", x.dim(0)}, {"N", W.dim(0)}, {"K", x.dim(1)}};
  call.inputs = {{"x", x}, {"W", W}};
  if (b) call.inputs.emplace("b", *b);
  call.params = {{"bias", b ? 1.0 : 0.0}};
  call.output_dtypes = {{"y", DType::f32}};
  ops::OpOutputs out = kernel.run(call);
  return float_output(out, "linear", subject, "y", {x.dim(0), W.dim(0)}, "a model projection");
}

Tensor transposed(const Tensor& W) {
  const Tensor c = W.contiguous();
  const std::int64_t N = c.dim(0), K = c.dim(1);
  Tensor t = Tensor::zeros(c.dtype(), {K, N});
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t k = 0; k < K; ++k) t.set_bits(k * N + n, c.bits_at(n * K + k));
  return t;
}

Primitives with_linear_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel) {
  p.linear_forward = [subject, kernel](const Tensor& x, const Tensor& W, const Tensor* b) {
    return linear_by(*kernel, subject, x, W, b);
  };
  p.linear_backward_input = [subject, kernel](const Tensor& dy, const Tensor& W) {
    return linear_by(*kernel, subject, dy, transposed(W), nullptr);
  };
  return p;
}

}  // namespace parity::model
