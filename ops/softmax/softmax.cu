// The CUDA softmax kernel: one block of kLanes threads per row. Thread 0 takes the row's maximum
// in ascending order, the block sums exp(x - m) in lane_sum.cuh's order (block_sum.cuh), and
// every thread writes its lane's y and log_y. All arithmetic is softmax_kernel.cuh's PARITY_HD
// code (compiled with --fmad=false), so y and log_y equal the host twin's bit for bit.
#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/softmax/softmax_kernel.cuh>

namespace parity::ops::softmax {
namespace {

using kernels::kLanes;

__global__ void __launch_bounds__(kLanes)
    softmax_rows(kernels::DeviceView x, std::int64_t N, kernels::DeviceOut y, kernels::DeviceOut log_y) {
  __shared__ float lanes[kLanes];
  __shared__ float row_m;
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(t, i); };
  if (l == 0) row_m = row_max(load, N);
  __syncthreads();
  const float m = row_m;
  const auto term = [&](std::int64_t i) { return shifted_exp(load(i), m); };
  const float s = kernels::block_sum(lanes, kernels::lane_sum(term, N, l), l);
  const float log_s = detmath::log_f32(s);
  for (std::int64_t i = l; i < N; i += kLanes) {
    y.store(t * N + i, prob(load(i), m, s));
    log_y.store(t * N + i, log_prob(load(i), m, log_s));
  }
}

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), N = x.dim(1);
    const DType out = call.output_dtype("y");
    Tensor y = Tensor::zeros(out, {T, N}), log_y = Tensor::zeros(out, {T, N});
    if (T == 0 || N == 0) return {{"y", std::move(y)}, {"log_y", std::move(log_y)}};
    const kernels::DeviceInput dx(x, "softmax cuda");
    kernels::DeviceOutput dy(y, "softmax cuda"), dlog_y(log_y, "softmax cuda");
    softmax_rows<<<static_cast<unsigned>(T), kLanes>>>(dx.view(), N, dy.out(), dlog_y.out());
    dy.copy_back();
    dlog_y.copy_back();
    return {{"y", std::move(y)}, {"log_y", std::move(log_y)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }

}  // namespace parity::ops::softmax
