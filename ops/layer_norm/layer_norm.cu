// The CUDA LayerNorm kernel: one block of kLanes threads per row, two passes. All arithmetic is
// layer_norm_arith.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host
// twin's bit for bit. Operands stay in their own layouts: each storage is copied whole and
// indexed by its strides.
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>

#include <parity/core/bf16.hpp>
#include <parity/ops/layer_norm/layer_norm_arith.cuh>
#include <parity/ops/layer_norm/layer_norm_subjects.hpp>
#include <parity/subjects/rlkernels/cuda_memory.cuh>

namespace parity::ops::layer_norm {
namespace {

using subjects::rlkernels::cuda::DeviceBuffer;

void check(cudaError_t err, const char* call) { subjects::rlkernels::cuda::check(err, "layer_norm cuda", call); }

// An operand in device memory, f32 or bf16: element (t, i) at data[offset + t s0 + i s1].
struct View {
  const void* data;
  bool bf16;
  std::int64_t offset, s0, s1;
  __device__ float operator()(std::int64_t t, std::int64_t i) const {
    const std::int64_t at = offset + t * s0 + i * s1;
    return bf16 ? bf16_to_float(static_cast<const std::uint16_t*>(data)[at]) : static_cast<const float*>(data)[at];
  }
};

// lanes[0] = the lane sum of `term` over n, in lane_sum.cuh's order; every thread returns it.
template <class Term>
__device__ float block_sum(float* lanes, const Term& term, std::int64_t n, int l) {
  lanes[l] = kernels::lane_sum(term, n, l);
  __syncthreads();
  for (int stride = kLanes / 2; stride >= 1; stride /= 2) {
    if (l < stride) kernels::fold_level(lanes, stride, l);
    __syncthreads();
  }
  const float total = lanes[0];
  __syncthreads();  // lanes is reused by the next sum
  return total;
}

__global__ void __launch_bounds__(kLanes)
    layer_norm_rows(View x, View w, View b, bool affine, std::int64_t D, float eps, bool bf16_out, void* y) {
  __shared__ float lanes[kLanes];
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(t, i); };
  const float mean = row_mean(block_sum(lanes, load, D, l), D);
  const float inv = inv_std(row_var(block_sum(lanes, Deviation2<decltype(load)>{load, mean}, D, l), D), eps);
  for (std::int64_t i = l; i < D; i += kLanes) {
    const float v = normalise(x(t, i), mean, inv, affine, affine ? w(0, i) : 0.0f, affine ? b(0, i) : 0.0f);
    if (bf16_out) static_cast<std::uint16_t*>(y)[t * D + i] = bf16_from_float_rne(v);
    else static_cast<float*>(y)[t * D + i] = v;
  }
}

// A 1-D operand copied to the device, or none.
struct Vector {
  std::optional<DeviceBuffer> buffer;
  View view{nullptr, false, 0, 0, 0};
  Vector(const OpCall& call, const char* name) {
    if (!call.has_input(name)) return;
    const Tensor& v = call.input(name);
    buffer.emplace(v.storage_bytes().size());
    check(cudaMemcpy(buffer->as<void>(), v.storage_bytes().data(), v.storage_bytes().size(), cudaMemcpyHostToDevice),
          name);
    view = {buffer->as<void>(), v.dtype() == DType::bf16, v.offset(), 0, v.strides()[0]};
  }
};

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    const DType out = call.output_dtype("y");
    Tensor y = Tensor::zeros(out, {T, D});
    if (T == 0 || D == 0) return {{"y", std::move(y)}};
    DeviceBuffer dx(x.storage_bytes().size()), dy(y.storage_bytes().size());
    check(cudaMemcpy(dx.as<void>(), x.storage_bytes().data(), x.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy x");
    const Vector w(call, "w"), b(call, "b");
    const View vx{dx.as<void>(), x.dtype() == DType::bf16, x.offset(), x.strides()[0], x.strides()[1]};
    layer_norm_rows<<<static_cast<unsigned>(T), kLanes>>>(vx, w.view, b.view, call.has_input("w"), D,
                                                          static_cast<float>(call.param("eps")), out == DType::bf16,
                                                          dy.as<void>());
    check(cudaGetLastError(), "layer_norm_rows launch");
    check(cudaMemcpy(y.storage_bytes().data(), dy.as<void>(), y.storage_bytes().size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy y");
    return {{"y", std::move(y)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }

}  // namespace parity::ops::layer_norm
