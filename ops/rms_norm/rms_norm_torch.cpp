// The only rms_norm source that includes LibTorch (ATen's per-operator headers): autograd through
// at::rms_norm, the reference of rms_norm_backward.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>

#include <parity/subjects/torch/convert.hpp>

#if __has_include(<ATen/ops/rms_norm.h>)
#include <ATen/core/grad_mode.h>
#include <ATen/ops/rms_norm.h>
#define PARITY_HAVE_AT_RMS_NORM 1
#endif

namespace parity::ops::rms_norm {
namespace {

OpOutputs torch_cpu_backward(const OpCall& call) {
#if PARITY_HAVE_AT_RMS_NORM
  at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
  const at::Tensor x = subjects::torch_impl::to_aten(call.input("x")).detach().requires_grad_();
  const at::Tensor w = subjects::torch_impl::to_aten(call.input("w"));
  const std::int64_t D = call.extent("D");
  at::rms_norm(x, {D}, w, call.param("eps")).backward(subjects::torch_impl::to_aten(call.input("dy")));
  return {{"dx", subjects::torch_impl::from_aten(x.grad())}};
#else
  (void)call;
  throw std::logic_error("at::rms_norm is absent from this LibTorch");
#endif
}

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu_backward() { return make_op_subject<RunSubject<&torch_cpu_backward>>(); }

std::string torch_unavailable_reason() {
#if PARITY_HAVE_AT_RMS_NORM
  return {};
#else
  return "this LibTorch has no at::rms_norm (LibTorch 2.4 and later do)";
#endif
}

}  // namespace parity::ops::rms_norm
