// The CUDA softmax kernel: one block of kLanes threads per row. Thread 0 takes the row's maximum
// in ascending order, the block sums exp(x - m) in lane_sum.cuh's order (block_sum.cuh), and
// every thread writes its lane's y and log_y. All arithmetic is softmax_kernel.cuh's PARITY_HD
// code (compiled with --fmad=false), so y and log_y equal the host twin's bit for bit.
#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/softmax/softmax_kernel.cuh>
#include <parity/ops/softmax/softmax_op.hpp>

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

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<Softmax>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    softmax_rows<<<kernels::blocks(d.extent("T")), kLanes>>>(d.in("x"), d.extent("N"), d.out("y"), d.out("log_y"));
  });
}

}  // namespace parity::ops::softmax
