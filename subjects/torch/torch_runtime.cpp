#include <parity/subjects/torch/torch_runtime.hpp>

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/cuda.h>
#include <torch/version.h>

namespace parity::subjects::torch_impl {

std::string torch_version_text() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

std::string torch_cuda_unavailable_reason() {
  // libtorch_cuda registers the CUDA device guard when it is loaded: a CPU-only LibTorch never does.
  if (!c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA)) return "LibTorch built without CUDA";
  if (!torch::cuda::is_available()) return "no CUDA device";
  return "";
}

}  // namespace parity::subjects::torch_impl
