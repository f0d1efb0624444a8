#pragma once
// Device-side operand access shared by parity's op CUDA kernels (compiled by nvcc only): an
// input's whole storage copied to the device and read through its strides and offset, so the
// kernel sees the case's layout as it is; an output in contiguous device memory, stored as the
// host twins store it (host_io.hpp), and copied back.
#include <cuda_runtime.h>

#include <cstdint>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/tensor.hpp>
#include <parity/subjects/rlkernels/cuda_memory.cuh>

namespace parity::ops::kernels {

// A rank-1 or rank-2 operand, f32, bf16 or f16: element (r, c) at data[offset + r s0 + c s1]
// (rank 1: (0, c), s0 = 0).
struct DeviceView {
  const void* data;
  DType dtype;
  std::int64_t offset, s0, s1;
  __device__ float operator()(std::int64_t r, std::int64_t c) const {
    const std::int64_t at = offset + r * s0 + c * s1;
    if (dtype == DType::bf16) return bf16_to_float(static_cast<const std::uint16_t*>(data)[at]);
    if (dtype == DType::f16) return f16_to_float(static_cast<const std::uint16_t*>(data)[at]);
    return static_cast<const float*>(data)[at];
  }
};

// A contiguous output, f32, bf16 or f16 (bf16 and f16: rounded to nearest even).
struct DeviceOut {
  void* data;
  DType dtype;
  __device__ void store(std::int64_t i, float v) const {
    if (dtype == DType::bf16) static_cast<std::uint16_t*>(data)[i] = bf16_from_float_rne(v);
    else if (dtype == DType::f16) static_cast<std::uint16_t*>(data)[i] = f16_from_float_rne(v);
    else static_cast<float*>(data)[i] = v;
  }
};

// An input's storage on the device for the duration of one call. Throws std::runtime_error
// "<what>: <call> failed: ..." where a CUDA call fails.
class DeviceInput {
 public:
  DeviceInput(const Tensor& t, const char* what) : buffer_(t.storage_bytes().size()) {
    subjects::rlkernels::cuda::check(
        cudaMemcpy(buffer_.as<void>(), t.storage_bytes().data(), t.storage_bytes().size(), cudaMemcpyHostToDevice),
        what, "cudaMemcpy to the device");
    const bool rank2 = t.shape().size() == 2;
    view_ = {buffer_.as<void>(), t.dtype(), t.offset(), rank2 ? t.strides()[0] : 0,
             rank2 ? t.strides()[1] : t.strides()[0]};
  }
  const DeviceView& view() const { return view_; }

 private:
  subjects::rlkernels::cuda::DeviceBuffer buffer_;
  DeviceView view_{};
};

// A contiguous output tensor `host` (zeros of its shape and dtype) mirrored on the device.
class DeviceOutput {
 public:
  DeviceOutput(Tensor& host, const char* what) : host_(host), what_(what), buffer_(host.storage_bytes().size()) {}
  DeviceOut out() const { return {buffer_.as<void>(), host_.dtype()}; }
  // Copies the device's elements into `host`, after checking the launch.
  void copy_back() {
    subjects::rlkernels::cuda::check(cudaGetLastError(), what_, "kernel launch");
    subjects::rlkernels::cuda::check(cudaMemcpy(host_.storage_bytes().data(), buffer_.as<void>(),
                                                host_.storage_bytes().size(), cudaMemcpyDeviceToHost),
                                     what_, "cudaMemcpy to the host");
  }

 private:
  Tensor& host_;
  const char* what_;
  subjects::rlkernels::cuda::DeviceBuffer buffer_;
};

}  // namespace parity::ops::kernels
