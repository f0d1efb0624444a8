#pragma once
// What kind of failure an exception thrown by a subject is (core/verdict.hpp's FailureKind):
// out of memory, a device fault that leaves the process's CUDA context unusable, or a plain throw.
// Read from the exception's type and from the words CUDA and LibTorch put in their messages, so
// that a kernel's own std::runtime_error carrying cudaGetErrorString's text is recognised as well
// as parity's own CUDA errors and LibTorch's c10::Error.
#include <exception>
#include <string>

#include <parity/core/verdict.hpp>

namespace parity {

struct ExceptionKind {
  FailureKind kind = FailureKind::threw;
  std::string label;  // for device_fault the CUDA error's name ("cudaErrorIllegalAddress"), else empty
};

// out_of_memory: std::bad_alloc, or a message with "out of memory" (cudaErrorMemoryAllocation,
// LibTorch's "CUDA out of memory") or "can't allocate memory" (LibTorch's CPU allocator).
// device_fault: a message with the text cudaGetErrorString gives for an error CUDA documents as
// sticky ("the process is left in an inconsistent state and any further CUDA work will return the
// same error"): an illegal address, a device-side assert, a launch failure, a misaligned address,
// an illegal instruction, a hardware stack error, an invalid program counter, an invalid address
// space, a launch timeout, an uncorrectable ECC error. threw otherwise.
ExceptionKind exception_kind(const std::exception& e);

// True for the kinds after which a process should not run another case: device_fault and
// out_of_memory (the allocator's state is unknown), besides those that end it.
bool ends_the_worker(FailureKind k);

}  // namespace parity
