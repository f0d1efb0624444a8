#pragma once
// My LoRA kernel as parity sees it: a forward kernel, a subject of parity's op lora_forward
// (x, W, A, B, scale -> y), and a backward kernel, a subject of lora_backward (x, W, A, B, dy,
// scale -> dx, dA, dB), on the host and (when built with CUDA) on the GPU. Both paths give the
// same bits (my_lora_math.cuh). register_subjects.cpp registers each pair under one name.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace my_lora {

using parity::ops::OpSubject;

// The host path. Stateless across calls, as parity requires of every subject.
std::unique_ptr<OpSubject> make_host_forward();
std::unique_ptr<OpSubject> make_host_backward();
// The host path with the LoRA scale forgotten: the bug parity must catch (my_lora_broken.cpp).
std::unique_ptr<OpSubject> make_broken_host_forward();
std::unique_ptr<OpSubject> make_broken_host_backward();

#if MY_LORA_CUDA
// The CUDA kernel; cuda_unavailable() says why it cannot run here ("" when it can).
std::unique_ptr<OpSubject> make_cuda_forward();
std::unique_ptr<OpSubject> make_cuda_backward();
std::string cuda_unavailable();
#endif

}  // namespace my_lora
