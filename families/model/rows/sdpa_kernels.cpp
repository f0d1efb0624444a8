#include <parity/families/model/rows/sdpa_kernels.hpp>

#include <stdexcept>

#include <parity/families/model/rows/op_output.hpp>
#include <parity/families/model/rows/tensor_ops.hpp>

namespace parity::model {
namespace {

// The op call on q, k, v [B, H, T, Dh]: rows [B, H*T*Dh], layout 0.
ops::OpCall sdpa_call(const std::string& subject, const Tensor& q, const Tensor& k, const Tensor& v, float scale) {
  if (k.shape() != q.shape() || v.shape() != q.shape())
    throw std::logic_error("sdpa subject " + subject + ": the model's attention gave q, k and v of different shapes");
  const std::int64_t B = q.dim(0), H = q.dim(1), S = q.dim(2), D = q.dim(3);
  ops::OpCall call;
  call.extents = {{"B", B}, {"H", H}, {"S", S}, {"D", D}};
  call.inputs = {
      {"q", reshaped(q, {B, H * S * D})}, {"k", reshaped(k, {B, H * S * D})}, {"v", reshaped(v, {B, H * S * D})}};
  call.params = {{"scale", scale}, {"causal", 0.0}, {"layout", 0.0}};
  return call;
}

// Output `name` of a kernel's run, [B, H*S*D] float32, as [B, H, S, D].
Tensor heads_of(const std::string& subject, ops::OpOutputs& out, const std::string& name, const Tensor& like) {
  const std::int64_t B = like.dim(0);
  return reshaped(float_output(out, "sdpa", subject, name, {B, like.numel() / B}, "the model's attention"),
                  like.shape());
}

}  // namespace

Primitives with_sdpa_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                             std::shared_ptr<ops::OpSubject> backward) {
  p.sdpa_forward = [subject, forward](const Tensor& q, const Tensor& k, const Tensor& v, float scale) {
    ops::OpCall call = sdpa_call(subject, q, k, v, scale);
    call.output_dtypes = {{"o", DType::f32}, {"lse", DType::f32}};
    ops::OpOutputs out = forward->run(call);
    return heads_of(subject, out, "o", q);
  };
  p.sdpa_backward = [subject, backward](const Tensor& q, const Tensor& k, const Tensor& v, float scale,
                                        const Tensor& d_out) {
    ops::OpCall call = sdpa_call(subject, q, k, v, scale);
    call.inputs.emplace("do", reshaped(d_out, {q.dim(0), q.numel() / q.dim(0)}));
    call.output_dtypes = {{"dq", DType::f32}, {"dk", DType::f32}, {"dv", DType::f32}};
    ops::OpOutputs out = backward->run(call);
    return SdpaGrads{heads_of(subject, out, "dq", q), heads_of(subject, out, "dk", k), heads_of(subject, out, "dv", v)};
  };
  return p;
}

}  // namespace parity::model
