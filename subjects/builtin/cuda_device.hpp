#pragma once
// Whether this process can run parity's CUDA kernels. Plain C++: callers need no CUDA headers.
#include <string>

namespace parity::subjects::builtin {

// "" when a CUDA device is present and runs kernels of this build; otherwise one line saying
// why not, e.g. "no CUDA device (cudaGetDeviceCount: no CUDA-capable device is detected)", or
// that this parity was built without CUDA (cuda_absent.cpp).
// Never throws or aborts, also without a driver; GPU tests exit 77 on a non-empty reason.
std::string cuda_unavailable_reason();

}  // namespace parity::subjects::builtin
