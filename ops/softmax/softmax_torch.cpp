// The only softmax source that includes LibTorch (ATen's per-operator headers).
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/softmax/softmax_op.hpp>

#include <ATen/ops/log_softmax.h>
#include <ATen/ops/softmax.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::softmax {
namespace {

OpOutputs torch_cpu(const OpCall& call) {
  const at::Tensor x = subjects::torch_impl::to_aten(call.input("x"));
  return {{"y", subjects::torch_impl::from_aten(at::softmax(x, 1))},
          {"log_y", subjects::torch_impl::from_aten(at::log_softmax(x, 1))}};
}

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return make_op_subject<RunSubject<&torch_cpu>>(); }

}  // namespace parity::ops::softmax
