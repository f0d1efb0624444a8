// cuda_unavailable_reason() of a build without nvcc (cuda_device.cu replaces this file when
// PARITY_CUDA is on): nothing can run on a device.
#include <parity/subjects/builtin/cuda_device.hpp>

namespace parity::subjects::builtin {

std::string cuda_unavailable_reason() { return "this parity was built without CUDA (no nvcc)"; }

}  // namespace parity::subjects::builtin
