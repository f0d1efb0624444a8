// The CUDA linear kernel: one block of kLanes threads per output element y[t, n]. All arithmetic
// is linear_arith.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host twin's
// bit for bit. Operands stay in their own layouts: each storage is copied whole and indexed by
// its strides.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include <parity/core/bf16.hpp>
#include <parity/ops/linear/linear_arith.cuh>
#include <parity/ops/linear/linear_subjects.hpp>
#include <parity/subjects/rlkernels/cuda_memory.cuh>

namespace parity::ops::linear {
namespace {

using subjects::rlkernels::cuda::DeviceBuffer;

void check(cudaError_t err, const char* call) { subjects::rlkernels::cuda::check(err, "linear cuda", call); }

// An operand in device memory, f32 or bf16: element (r, c) at data[offset + r s0 + c s1].
struct View {
  const void* data;
  bool bf16;
  std::int64_t offset, s0, s1;
  __device__ float operator()(std::int64_t r, std::int64_t c) const {
    const std::int64_t at = offset + r * s0 + c * s1;
    return bf16 ? bf16_to_float(static_cast<const std::uint16_t*>(data)[at]) : static_cast<const float*>(data)[at];
  }
};

// One block per output column n, striding over the rows t (gridDim.y is at most 65535, T is not):
// each output is one block's lanes and fold, whatever the grid.
__global__ void __launch_bounds__(kLanes) linear_elements(View x, View w, View b, bool has_bias, std::int64_t T,
                                                          std::int64_t N, std::int64_t K, bool bf16_out, void* y) {
  __shared__ float lanes[kLanes];
  const std::int64_t n = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  for (std::int64_t t = blockIdx.y; t < T; t += gridDim.y) {
    const auto lx = [&](std::int64_t k) { return x(t, k); };
    const auto lw = [&](std::int64_t k) { return w(n, k); };
    lanes[l] = kernels::lane_sum(Product<decltype(lx), decltype(lw)>{lx, lw}, K, l);
    __syncthreads();
    for (int stride = kLanes / 2; stride >= 1; stride /= 2) {
      if (l < stride) kernels::fold_level(lanes, stride, l);
      __syncthreads();
    }
    if (l == 0) {
      const float v = add_bias(lanes[0], has_bias, has_bias ? b(0, n) : 0.0f);
      if (bf16_out) static_cast<std::uint16_t*>(y)[t * N + n] = bf16_from_float_rne(v);
      else static_cast<float*>(y)[t * N + n] = v;
    }
    __syncthreads();  // lanes[0] is read before the next row overwrites the lanes
  }
}

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("W");
    const bool has_bias = call.has_input("b");
    const std::int64_t T = x.dim(0), K = x.dim(1), N = w.dim(0);
    const DType out = call.output_dtype("y");
    Tensor y = Tensor::zeros(out, {T, N});
    if (T == 0 || N == 0) return {{"y", std::move(y)}};
    DeviceBuffer dx(x.storage_bytes().size()), dw(w.storage_bytes().size()), dy(y.storage_bytes().size());
    check(cudaMemcpy(dx.as<void>(), x.storage_bytes().data(), x.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy x");
    check(cudaMemcpy(dw.as<void>(), w.storage_bytes().data(), w.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy W");
    std::optional<DeviceBuffer> db;
    View vb{nullptr, false, 0, 0, 0};
    if (has_bias) {
      const Tensor& b = call.input("b");
      db.emplace(b.storage_bytes().size());
      check(cudaMemcpy(db->as<void>(), b.storage_bytes().data(), b.storage_bytes().size(), cudaMemcpyHostToDevice),
            "cudaMemcpy b");
      vb = {db->as<void>(), b.dtype() == DType::bf16, b.offset(), 0, b.strides()[0]};
    }
    const View vx{dx.as<void>(), x.dtype() == DType::bf16, x.offset(), x.strides()[0], x.strides()[1]};
    const View vw{dw.as<void>(), w.dtype() == DType::bf16, w.offset(), w.strides()[0], w.strides()[1]};
    const dim3 grid(static_cast<unsigned>(N), static_cast<unsigned>(std::clamp<std::int64_t>(T, 1, 65535)));
    linear_elements<<<grid, kLanes>>>(vx, vw, vb, has_bias, T, N, K, out == DType::bf16, dy.as<void>());
    check(cudaGetLastError(), "linear_elements launch");
    check(cudaMemcpy(y.storage_bytes().data(), dy.as<void>(), y.storage_bytes().size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy y");
    return {{"y", std::move(y)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }

}  // namespace parity::ops::linear
