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
  register_op_subject("lora_forward", torch_reference(Pass::forward, true));
  add_lora_probes(HostProbes<ForwardHost>{"lora_forward"}, true);
}

}  // namespace

OpSubjectInfo torch_reference(Pass pass, bool on_cuda) {
  const bool forward = pass == Pass::forward;
  return {.name = on_cuda ? "torch-cuda" : "torch-cpu",
          .backend = on_cuda ? "torch-cuda" : "torch-cpu",
          .kind = subjects::SubjectKind::reference,
          .description = std::string("LibTorch linear + LoRA path + autograd, ") + (on_cuda ? "CUDA" : "CPU"),
          .unavailable_reason = [on_cuda] { return torch_unavailable_reason(on_cuda); },
          .make = [forward, on_cuda] { return forward ? make_torch_forward(on_cuda) : make_torch_backward(on_cuda); }};
}

const gen::Family& family() {
  return shipped_op_family<LoraForward>({.kernel = kKernel,
                                         .make_host = &make_op_subject<ForwardHost<StandardArithmetic>>,
                                         .make_cuda = PARITY_OP_CUDA_KERNEL(&make_forward_cuda_kernel),
                                         .torch = torch_reference(Pass::forward, false),
                                         .register_probes = &register_forward_subjects});
}

}  // namespace parity::ops::lora_forward
