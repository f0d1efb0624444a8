#pragma once
// Host-side helpers shared by parity's CUDA kernels (the op folders' .cu): checked CUDA
// calls and device memory owned for the duration of one call.
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace parity::subjects::builtin::cuda {

// Throws std::runtime_error "<what>: <call> failed: <CUDA's message>" unless err is success.
inline void check(cudaError_t err, const char* what, const char* call) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + call + " failed: " + cudaGetErrorString(err));
}

// Device memory owned for the duration of one call.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) { check(cudaMalloc(&ptr_, bytes), "cuda", "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

}  // namespace parity::subjects::builtin::cuda
