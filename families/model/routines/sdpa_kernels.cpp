#include <parity/families/model/routines/sdpa_kernels.hpp>

#include <stdexcept>

#include <parity/families/model/routines/op_output.hpp>

namespace parity::model {
namespace {

// The op call on q, k, v [B, H, T, Dh], the dims sdpa's subjects take, in layout 0 (their memory):
// multi-head attention, Hkv = H and G = 1.
ops::OpCall sdpa_call(const std::string& subject, const Tensor& q, const Tensor& k, const Tensor& v, float scale) {
  if (k.shape() != q.shape() || v.shape() != q.shape())
    throw std::logic_error("sdpa subject " + subject + ": the model's attention gave q, k and v of different shapes");
  ops::OpCall call;
  call.extents = {{"B", q.dim(0)}, {"Hkv", q.dim(1)}, {"G", 1}, {"S", q.dim(2)}, {"D", q.dim(3)}};
  call.inputs = {{"q", q.contiguous()}, {"k", k.contiguous()}, {"v", v.contiguous()}};
  call.params = {{"scale", scale}, {"causal", 0.0}, {"layout", 0.0}};
  return call;
}

// Output `name` of a kernel's run, float32 [B, H, S, D] in any strides, as a contiguous tensor.
Tensor heads_of(const std::string& subject, ops::OpOutputs& out, const std::string& name, const Tensor& like) {
  return float_output(out, "sdpa", subject, name, like.shape(), "the model's attention").contiguous();
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
    call.inputs.emplace("do", d_out.contiguous());
    call.output_dtypes = {{"dq", DType::f32}, {"dk", DType::f32}, {"dv", DType::f32}};
    ops::OpOutputs out = backward->run(call);
    return SdpaGrads{heads_of(subject, out, "dq", q), heads_of(subject, out, "dk", k), heads_of(subject, out, "dv", v)};
  };
  return p;
}

}  // namespace parity::model
