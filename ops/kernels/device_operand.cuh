#pragma once
// Device-side operand access shared by parity's op CUDA kernels (compiled by nvcc only): an
// input's whole storage copied to the device and read through its strides and offset, so the
// kernel sees the case's layout as it is; an output in contiguous device memory, stored as the
// host twins store it (host_io.hpp), and copied back.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/tensor.hpp>
#include <parity/subjects/builtin/cuda_memory.cuh>

namespace parity::ops::kernels {

// Element `at` of f32, bf16 or f16 storage `data`, as a float (exact).
__device__ inline float load_float(const void* data, DType dtype, std::int64_t at) {
  if (dtype == DType::bf16) return bf16_to_float(static_cast<const std::uint16_t*>(data)[at]);
  if (dtype == DType::f16) return f16_to_float(static_cast<const std::uint16_t*>(data)[at]);
  return static_cast<const float*>(data)[at];
}

// An operand as a matrix, f32, bf16 or f16: element (r, c) at data[offset + r s0 + c s1]
// (rank 1: (0, c), s0 = 0; DeviceInput).
struct DeviceView {
  const void* data;
  DType dtype;
  std::int64_t offset, s0, s1;
  __device__ float operator()(std::int64_t r, std::int64_t c) const {
    return load_float(data, dtype, offset + r * s0 + c * s1);
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

// A rank-4 operand, f32, bf16 or f16, indexed by its four strides: element (a, b, c, d) at
// data[offset + a s0 + b s1 + c s2 + d s3], whatever order the dims have in memory
// (DeviceInput::view4).
struct DeviceView4 {
  const void* data;
  DType dtype;
  std::int64_t offset, s0, s1, s2, s3;
  __device__ float operator()(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) const {
    return load_float(data, dtype, offset + a * s0 + b * s1 + c * s2 + d * s3);
  }
};

// An input's storage on the device for the duration of one call: the whole storage is copied,
// so the kernel sees the case's layout as it is. Throws std::runtime_error "<what>: <call> failed:
// ..." where a CUDA call fails.
class DeviceInput {
 public:
  DeviceInput(const Tensor& t, const char* what)
      : what_(what),
        dtype_(t.dtype()),
        offset_(t.offset()),
        shape_(t.shape()),
        strides_(t.strides()),
        buffer_(t.storage_bytes().size()) {
    subjects::builtin::cuda::check(
        cudaMemcpy(buffer_.as<void>(), t.storage_bytes().data(), t.storage_bytes().size(), cudaMemcpyHostToDevice),
        what, "cudaMemcpy to the device");
  }

  // The operand as a matrix: rank 1 as (0, c); rank 3 and up as the matrix of its rows, its later
  // dims chained (each stride its inner neighbour's times that one's size, as an op's dims in their
  // own order are over their matrix: ops/framework/op_view.hpp). Throws std::invalid_argument for
  // later dims that do not chain.
  DeviceView view() const {
    bool empty = false;
    for (const std::int64_t n : shape_) empty = empty || n == 0;
    for (std::size_t k = 1; k + 1 < shape_.size(); ++k)
      if (!empty && strides_[k] != strides_[k + 1] * shape_[k + 1])
        throw std::invalid_argument(std::string(what_) + ": an operand whose dims after the first do not chain");
    return {buffer_.as<void>(), dtype_, offset_, shape_.size() >= 2 ? strides_[0] : 0, strides_.back()};
  }

  // A rank-4 operand by its four strides. Throws std::invalid_argument for another rank.
  DeviceView4 view4() const {
    if (shape_.size() != 4) throw std::invalid_argument(std::string(what_) + ": an operand that is not of rank 4");
    return {buffer_.as<void>(), dtype_, offset_, strides_[0], strides_[1], strides_[2], strides_[3]};
  }

 private:
  const char* what_;
  DType dtype_;
  std::int64_t offset_;
  std::vector<std::int64_t> shape_, strides_;
  subjects::builtin::cuda::DeviceBuffer buffer_;
};

// A contiguous output tensor `host` (zeros of its shape and dtype) mirrored on the device.
class DeviceOutput {
 public:
  DeviceOutput(Tensor& host, const char* what) : host_(host), what_(what), buffer_(host.storage_bytes().size()) {}
  DeviceOut out() const { return {buffer_.as<void>(), host_.dtype()}; }
  // Copies the device's elements into `host`, after checking the launch.
  void copy_back() {
    subjects::builtin::cuda::check(cudaGetLastError(), what_, "kernel launch");
    subjects::builtin::cuda::check(cudaMemcpy(host_.storage_bytes().data(), buffer_.as<void>(),
                                              host_.storage_bytes().size(), cudaMemcpyDeviceToHost),
                                   what_, "cudaMemcpy to the host");
  }

 private:
  Tensor& host_;
  const char* what_;
  subjects::builtin::cuda::DeviceBuffer buffer_;
};

}  // namespace parity::ops::kernels
