// The only swiglu source that includes LibTorch (ATen's per-operator headers).
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/swiglu/swiglu_op.hpp>

#include <ATen/core/grad_mode.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/silu.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::swiglu {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

// silu of x's first half times its second half.
at::Tensor swiglu(const at::Tensor& x, std::int64_t F) {
  return at::mul(at::silu(x.narrow(1, 0, F)), x.narrow(1, F, F));
}

OpOutputs torch_cpu(const OpCall& call) {
  return {{"y", from_aten(swiglu(to_aten(call.input("x")), call.extent("F")))}};
}

OpOutputs torch_cpu_backward(const OpCall& call) {
  at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
  const at::Tensor x = to_aten(call.input("x")).detach().requires_grad_();
  swiglu(x, call.extent("F")).backward(to_aten(call.input("dy")));
  return {{"dx", from_aten(x.grad())}};
}

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return make_op_subject<RunSubject<&torch_cpu>>(); }
std::unique_ptr<OpSubject> make_torch_cpu_backward() { return make_op_subject<RunSubject<&torch_cpu_backward>>(); }

}  // namespace parity::ops::swiglu
