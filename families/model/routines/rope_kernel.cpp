#include <parity/families/model/routines/rope_kernel.hpp>

#include <stdexcept>

#include <parity/families/model/routines/op_output.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>

namespace parity::model {
namespace {

// The table [T, P] for B samples of T tokens, [B*T, P], its sign flipped when `negated`.
Tensor per_token_row(const Tensor& table, std::int64_t B, bool negated) {
  const Tensor t = table.contiguous();
  const std::int64_t n = t.numel();
  Tensor rows = Tensor::zeros(DType::f32, {B * t.dim(0), t.dim(1)});
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t i = 0; i < n; ++i) rows.set_value(b * n + i, negated ? -t.value_at(i) : t.value_at(i));
  return rows;
}

Tensor rotated(ops::OpSubject& kernel, const std::string& subject, const Tensor& x, const Tensor& cos,
               const Tensor& sin, int rope_dims, bool adjoint) {
  if (x.shape().size() != 4 || rope_dims < 0 || rope_dims % 2 != 0 || rope_dims > x.dim(3) ||
      cos.shape() != std::vector<std::int64_t>{x.dim(1), rope_dims / 2} || sin.shape() != cos.shape())
    throw std::logic_error("rope subject " + subject +
                           ": the model's attention gave x, cos, sin and rope_dims of mismatched shapes");
  if (rope_dims == 0) return x.contiguous();
  const std::int64_t B = x.dim(0), T = x.dim(1), H = x.dim(2), Dh = x.dim(3);
  ops::OpCall call;
  call.extents = {{"T", B * T}, {"H", H}, {"P", rope_dims / 2}, {"Q", Dh - rope_dims}};
  call.inputs = {{"x", reshaped(x, {B * T, H, Dh})},
                 {"cos", per_token_row(cos, B, false)},
                 {"sin", per_token_row(sin, B, adjoint)}};
  call.params = {{"interleaved", 0.0}};
  call.output_dtypes = {{"y", DType::f32}};
  ops::OpOutputs out = kernel.run(call);
  return reshaped(float_output(out, "rope", subject, "y", {B * T, H, Dh}, "the model's attention"), x.shape());
}

}  // namespace

Primitives with_rope_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel) {
  p.rope_forward = [subject, kernel](const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims) {
    return rotated(*kernel, subject, x, cos, sin, rope_dims, false);
  };
  p.rope_backward_input = [subject, kernel](const Tensor& dy, const Tensor& cos, const Tensor& sin, int rope_dims) {
    return rotated(*kernel, subject, dy, cos, sin, rope_dims, true);
  };
  return p;
}

}  // namespace parity::model
