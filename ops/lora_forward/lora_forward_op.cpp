// The lora_forward op as parity ships it: its declaration (lora_forward_op.hpp) with parity's LoRA
// kernel (the host twin, lora_host.hpp, and the CUDA kernel, lora.cu), LibTorch's references
// (lora_torch.cpp) and the mismatch probes (lora_probes.hpp) as its subjects.
#include <string>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/lora_forward/lora_forward_op.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/ops/lora_forward/lora_probes.hpp>
#include <parity/ops/lora_forward/lora_subjects.hpp>

namespace parity::ops::lora_forward {
namespace {

void register_forward_subjects() {
#if PARITY_HAVE_TORCH
  register_op_subject("lora_forward", torch_reference(Pass::forward, true));
#endif
  add_lora_probes(HostProbes<ForwardHost>{"lora_forward"}, true);
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<LoraForward>({.kernel = kKernel,
                                         .make_host = &make_op_subject<ForwardHost<StandardArithmetic>>,
                                         .make_cuda = PARITY_OP_CUDA_KERNEL(&make_forward_cuda_kernel),
                                         .torch = PARITY_OP_TORCH(torch_reference(Pass::forward, false)),
                                         .register_probes = &register_forward_subjects});
}

}  // namespace parity::ops::lora_forward
