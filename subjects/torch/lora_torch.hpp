#pragma once
// LibTorch's LoRA linear, as PEFT's `Linear.forward` computes it (docs/math.md, "LoRA linear"):
// the reference implementation whose findings parity reports. Plain header: callers need no
// LibTorch include.
#include <memory>
#include <string>

#include <parity/subjects/lora_family.hpp>

namespace parity::subjects::torch_impl {

// A LoraSubject evaluated by LibTorch on the CPU, or on the first CUDA device when on_cuda.
// Results always come back as CPU parity Tensors; last_path() is "torch-cpu" or
// "torch-cuda". Throws InputError with lora_torch_unavailable_reason(on_cuda) when that
// reason is not empty: a CUDA subject never falls back to the CPU silently.
std::unique_ptr<LoraSubject> make_lora_torch(bool on_cuda);

// Why make_lora_torch(on_cuda) cannot run here: "" when it can; for CUDA
// "LibTorch built without CUDA" or "no CUDA device".
std::string lora_torch_unavailable_reason(bool on_cuda);

// The LibTorch version parity was compiled against, "MAJOR.MINOR.PATCH" from
// <torch/version.h> (Debian's 1.13.1 package reports "1.13.0" there).
std::string torch_version_text();

}  // namespace parity::subjects::torch_impl
