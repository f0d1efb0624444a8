// The CUDA RMSNorm kernels, forward and backward: one block of kLanes threads per row. All
// arithmetic is rms_norm_arith.cuh's PARITY_HD code (compiled with --fmad=false), so y and dx equal
// the host twins' bit for bit. Operands stay in their own layouts: each storage is copied whole and
// indexed by its strides.
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/rms_norm/rms_norm_arith.cuh>
#include <parity/ops/rms_norm/rms_norm_subjects.hpp>
#include <parity/subjects/rlkernels/cuda_memory.cuh>

namespace parity::ops::rms_norm {
namespace {

using subjects::rlkernels::cuda::DeviceBuffer;

void check(cudaError_t err, const char* call) { subjects::rlkernels::cuda::check(err, "rms_norm cuda", call); }

// An operand in device memory, f32, bf16 or f16: element (t, i) at data[offset + t s0 + i s1].
struct View {
  const void* data;
  DType dtype;
  std::int64_t offset, s0, s1;
  __device__ float operator()(std::int64_t t, std::int64_t i) const {
    const std::int64_t at = offset + t * s0 + i * s1;
    if (dtype == DType::bf16) return bf16_to_float(static_cast<const std::uint16_t*>(data)[at]);
    if (dtype == DType::f16) return f16_to_float(static_cast<const std::uint16_t*>(data)[at]);
    return static_cast<const float*>(data)[at];
  }
};

__global__ void __launch_bounds__(kLanes) rms_norm_rows(View x, View w, std::int64_t D, float eps, DType out, void* y) {
  __shared__ float lanes[kLanes];
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(t, i); };
  lanes[l] = kernels::lane_sum(Square<decltype(load)>{load}, D, l);
  __syncthreads();
  for (int stride = kLanes / 2; stride >= 1; stride /= 2) {
    if (l < stride) kernels::fold_level(lanes, stride, l);
    __syncthreads();
  }
  const float inv = inv_rms(lanes[0], D, eps);
  for (std::int64_t i = l; i < D; i += kLanes) {
    const float v = normalise(x(t, i), inv, w(0, i));
    if (out == DType::bf16) static_cast<std::uint16_t*>(y)[t * D + i] = bf16_from_float_rne(v);
    else if (out == DType::f16) static_cast<std::uint16_t*>(y)[t * D + i] = f16_from_float_rne(v);
    else static_cast<float*>(y)[t * D + i] = v;
  }
}

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("w");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    const DType out = call.output_dtype("y");
    Tensor y = Tensor::zeros(out, {T, D});
    if (T == 0 || D == 0) return {{"y", std::move(y)}};
    DeviceBuffer dx(x.storage_bytes().size()), dw(w.storage_bytes().size()), dy(y.storage_bytes().size());
    check(cudaMemcpy(dx.as<void>(), x.storage_bytes().data(), x.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy x");
    check(cudaMemcpy(dw.as<void>(), w.storage_bytes().data(), w.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy w");
    const View vx{dx.as<void>(), x.dtype(), x.offset(), x.strides()[0], x.strides()[1]};
    const View vw{dw.as<void>(), w.dtype(), w.offset(), 0, w.strides()[0]};
    rms_norm_rows<<<static_cast<unsigned>(T), kLanes>>>(vx, vw, D, static_cast<float>(call.param("eps")), out,
                                                        dy.as<void>());
    check(cudaGetLastError(), "rms_norm_rows launch");
    check(cudaMemcpy(y.storage_bytes().data(), dy.as<void>(), y.storage_bytes().size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy y");
    return {{"y", std::move(y)}};
  }
};

// The backward's row t: inv as the forward's, then the dot of g and xh, then dx.
__global__ void __launch_bounds__(kLanes)
    rms_norm_backward_rows(kernels::DeviceView x, kernels::DeviceView w, kernels::DeviceView dy, std::int64_t D,
                           float eps, kernels::DeviceOut dx) {
  __shared__ float lanes[kLanes];
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load_x = [&](std::int64_t i) { return x(t, i); };
  const auto load_g = [&](std::int64_t i) { return scaled_gradient(dy(t, i), w(0, i)); };
  const float inv =
      inv_rms(kernels::block_sum(lanes, kernels::lane_sum(Square<decltype(load_x)>{load_x}, D, l), l), D, eps);
  const GradientDot<decltype(load_g), decltype(load_x)> term{load_g, load_x, inv};
  const float mu = gradient_mean(kernels::block_sum(lanes, kernels::lane_sum(term, D, l), l), D);
  for (std::int64_t i = l; i < D; i += kLanes) dx.store(t * D + i, input_gradient(x(t, i), load_g(i), inv, mu));
}

class CudaBackwardKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), D = call.extent("D");
    Tensor dx = Tensor::zeros(call.output_dtype("dx"), {T, D});
    if (T == 0 || D == 0) return {{"dx", std::move(dx)}};  // no element: a grid of no blocks is no launch
    const kernels::DeviceInput x(call.input("x"), "rms_norm_backward cuda"),
        w(call.input("w"), "rms_norm_backward cuda"), dy(call.input("dy"), "rms_norm_backward cuda");
    kernels::DeviceOutput out(dx, "rms_norm_backward cuda");
    rms_norm_backward_rows<<<static_cast<unsigned>(T), kLanes>>>(x.view(), w.view(), dy.view(), D,
                                                                 static_cast<float>(call.param("eps")), out.out());
    out.copy_back();
    return {{"dx", std::move(dx)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }
std::unique_ptr<OpSubject> make_cuda_backward_kernel() { return std::make_unique<CudaBackwardKernel>(); }

}  // namespace parity::ops::rms_norm
