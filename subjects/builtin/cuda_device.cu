#include <parity/subjects/builtin/cuda_device.hpp>

#include <cuda_runtime.h>

#include <parity/core/build_info.hpp>

namespace parity::subjects::builtin {
namespace {

// Compiled for the same architectures as the kernels: if the device cannot load this, it
// cannot load them either.
__global__ void image_probe() {}

// "<what> (<call>: <error string>)", clearing the error so that later calls start clean.
std::string failure(const char* what, const char* call, cudaError_t err) {
  cudaGetLastError();
  return std::string(what) + " (" + call + ": " + cudaGetErrorString(err) + ")";
}

}  // namespace

std::string cuda_unavailable_reason() {
  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess)
    return failure("no CUDA device", "cudaGetDeviceCount", err);
  if (count == 0) return "no CUDA device (cudaGetDeviceCount: 0 devices)";
  cudaFuncAttributes attributes{};
  if (const cudaError_t err = cudaFuncGetAttributes(&attributes, image_probe); err != cudaSuccess)
    return failure("the CUDA device cannot run this build's kernels", "cudaFuncGetAttributes", err);
  // Provenance (core/build_info.hpp): the device results come from and the runtime loaded.
  cudaDeviceProp props{};
  int runtime = 0;
  if (cudaGetDeviceProperties(&props, 0) == cudaSuccess && cudaRuntimeGetVersion(&runtime) == cudaSuccess)
    note_cuda_device(props.name, std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10));
  return "";
}

}  // namespace parity::subjects::builtin
