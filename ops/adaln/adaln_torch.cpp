// The only adaln source that includes LibTorch (ATen's per-operator headers).
#include <memory>

#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/framework/op_subject.hpp>

#include <ATen/ops/layer_norm.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::adaln {
namespace {

OpOutputs torch_cpu(const OpCall& call) {
  const std::int64_t B = call.extent("B"), S = call.extent("S"), D = call.extent("D");
  const at::Tensor x = subjects::torch_impl::to_aten(call.input("x")).reshape({B, S, D});
  const at::Tensor scale = subjects::torch_impl::to_aten(call.input("scale")).unsqueeze(1);
  const at::Tensor shift = subjects::torch_impl::to_aten(call.input("shift")).unsqueeze(1);
  const at::Tensor n = at::layer_norm(x, {D}, {}, {}, call.param("eps"));
  return {{"y", subjects::torch_impl::from_aten(n.mul(scale.add(1)).add(shift).reshape({B, S * D}))}};
}

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return make_op_subject<RunSubject<&torch_cpu>>(); }

}  // namespace parity::ops::adaln
