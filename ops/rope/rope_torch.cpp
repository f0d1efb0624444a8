// The only rope source that includes LibTorch (ATen's per-operator headers).
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/rope/rope_op.hpp>

#include <ATen/ops/cat.h>
#include <ATen/ops/stack.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::ops::rope {
namespace {

OpOutputs torch_cpu(const OpCall& call) {
  const std::int64_t T = call.extent("T"), H = call.extent("H"), P = call.extent("P"), Q = call.extent("Q");
  const bool interleaved = call.param("interleaved") != 0;
  const at::Tensor heads = subjects::torch_impl::to_aten(call.input("x"));  // [T, H, 2P+Q]
  const at::Tensor x = heads.narrow(2, 0, 2 * P);
  at::Tensor cos = subjects::torch_impl::to_aten(call.input("cos")).unsqueeze(1);
  at::Tensor sin = subjects::torch_impl::to_aten(call.input("sin")).unsqueeze(1);
  at::Tensor rotated;
  if (interleaved) {  // (-x[2j + 1], x[2j]) per pair
    const at::Tensor pairs = x.reshape({T, H, P, 2});
    rotated = at::stack({pairs.select(3, 1).neg(), pairs.select(3, 0)}, 3).reshape({T, H, 2 * P});
    cos = cos.repeat_interleave(2, 2);
    sin = sin.repeat_interleave(2, 2);
  } else {  // rotate_half: (-x[P:], x[:P])
    rotated = at::cat({x.narrow(2, P, P).neg(), x.narrow(2, 0, P)}, 2);
    cos = at::cat({cos, cos}, 2);
    sin = at::cat({sin, sin}, 2);
  }
  const at::Tensor y = at::cat({x.mul(cos).add(rotated.mul(sin)).to(x.scalar_type()), heads.narrow(2, 2 * P, Q)}, 2);
  return {{"y", subjects::torch_impl::from_aten(y)}};
}

}  // namespace

std::unique_ptr<OpSubject> make_torch_cpu() { return make_op_subject<RunSubject<&torch_cpu>>(); }

}  // namespace parity::ops::rope
