#pragma once
// What lora_forward's and lora_backward's registrations (lora_forward_op.cpp,
// lora_backward_op.cpp) share: the kernel's name and LibTorch's reference subjects.
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::lora_forward {

inline constexpr const char* kKernel = "parity's deterministic LoRA kernel";

enum class Pass { forward, backward };

// LibTorch's LoRA linear (lora_kernel.hpp) as the subject torch-cpu or torch-cuda of
// lora_forward (Pass::forward) or lora_backward (Pass::backward); defined in lora_torch.cpp, so
// named only inside PARITY_OP_TORCH or where PARITY_HAVE_TORCH.
OpSubjectInfo torch_reference(Pass pass, bool on_cuda);

}  // namespace parity::ops::lora_forward
