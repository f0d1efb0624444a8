#pragma once
// My LoRA kernel as parity sees it: a parity::subjects::LoraSubject, on the host and (when built
// with CUDA) on the GPU. Both paths give the same bits (my_lora_math.cuh).
#include <memory>
#include <string>

#include <parity/subjects/lora_family.hpp>

namespace my_lora {

using parity::subjects::LoraSubject;

// The host path. Stateless across calls, as parity requires of every subject.
std::unique_ptr<LoraSubject> make_host();
// The host path with the LoRA scale forgotten: the bug parity must catch (my_lora_broken.cpp).
std::unique_ptr<LoraSubject> make_broken_host();

#if MY_LORA_CUDA
// The CUDA kernel; cuda_unavailable() says why it cannot run here ("" when it can).
std::unique_ptr<LoraSubject> make_cuda();
std::string cuda_unavailable();
#endif

}  // namespace my_lora
