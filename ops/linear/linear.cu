// The CUDA linear kernel: one block of kLanes threads per output element y[t, n]. All arithmetic
// is linear_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host twin's
// bit for bit. Operands stay in their own layouts (device_operand.cuh).
#include <algorithm>
#include <cstdint>

#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/linear/linear_kernel.cuh>
#include <parity/ops/linear/linear_op.hpp>

namespace parity::ops::linear {
namespace {

// One block per output column n, striding over the rows t (gridDim.y is at most 65535, T is not):
// each output is one block's lanes and fold, whatever the grid.
__global__ void __launch_bounds__(kLanes)
    linear_elements(kernels::DeviceView x, kernels::DeviceView w, kernels::DeviceView b, bool has_bias, std::int64_t T,
                    std::int64_t N, std::int64_t K, kernels::DeviceOut y) {
  __shared__ float lanes[kLanes];
  const std::int64_t n = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  for (std::int64_t t = blockIdx.y; t < T; t += gridDim.y) {
    const auto lx = [&](std::int64_t k) { return x(t, k); };
    const auto lw = [&](std::int64_t k) { return w(n, k); };
    // block_sum leaves the lanes free for the next row's sum on return.
    const float dot =
        kernels::block_sum(lanes, kernels::lane_sum(Product<decltype(lx), decltype(lw)>{lx, lw}, K, l), l);
    if (l == 0) y.store(t * N + n, add_bias(dot, has_bias, has_bias ? b(0, n) : 0.0f));
  }
}

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<Linear>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    const std::int64_t T = d.extent("T"), N = d.extent("N");
    const dim3 grid(kernels::blocks(N), static_cast<unsigned>(std::clamp<std::int64_t>(T, 1, 65535)));
    linear_elements<<<grid, kLanes>>>(d.in("x"), d.in("W"), d.optional("b"), d.has("b"), T, N, d.extent("K"),
                                      d.out("y"));
  });
}

}  // namespace parity::ops::linear
