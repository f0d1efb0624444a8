// The lora_backward op as parity ships it: its declaration (lora_backward_op.hpp) with parity's
// LoRA kernel's backward (the host twin and the CUDA kernel, ops/lora_forward), LibTorch's
// autograd and the mismatch probes whose fault the gradients show as its subjects.
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/lora_backward/lora_backward_op.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/ops/lora_forward/lora_probes.hpp>
#include <parity/ops/lora_forward/lora_subjects.hpp>

namespace parity::ops::lora_backward {
namespace {

using namespace lora_forward;

void register_backward_subjects() {
#if PARITY_HAVE_TORCH
  register_op_subject("lora_backward", torch_reference(Pass::backward, true));
#endif
  add_lora_probes(HostProbes<BackwardHost>{"lora_backward"}, false);
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<LoraBackward>({.kernel = kKernel,
                                          .make_host = &make_op_subject<BackwardHost<StandardArithmetic>>,
                                          .make_cuda = PARITY_OP_CUDA_KERNEL(&make_backward_cuda_kernel),
                                          .torch = PARITY_OP_TORCH(torch_reference(Pass::backward, false)),
                                          .register_probes = &register_backward_subjects});
}

}  // namespace parity::ops::lora_backward
