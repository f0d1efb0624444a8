#pragma once
// The CUDA LoRA kernel (lora.cu) as a LoraSubject. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/subjects/lora_family.hpp>

namespace parity::subjects::builtin {

// A subject whose y, dx, dA and dB equal those of the host twin
// (LoraHostTwin<StandardArithmetic>) bit for bit, for every input, layout and shape: each
// output is one fma chain in the ascending order lora_arith.cuh documents, independent of
// T, grid and tile. Inputs may have any strides and offset; outputs are contiguous; dW stays
// empty. last_path() is "cuda-tiled". Each call runs synchronously on the current device and
// throws std::runtime_error naming the CUDA call that failed (InputError on bad inputs).
std::unique_ptr<LoraSubject> make_lora_cuda_kernel();

}  // namespace parity::subjects::builtin
