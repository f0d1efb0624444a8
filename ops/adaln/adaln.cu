// The CUDA AdaLN kernel: one block of kLanes threads per token (b, s), two lane sums (the mean,
// then the centred squares) folded in lane_sum.cuh's order, all arithmetic adaln_kernel.cuh's
// PARITY_HD code (compiled with --fmad=false), so y equals the host twin's bit for bit.
#include <parity/ops/adaln/adaln_kernel.cuh>
#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_call.cuh>

namespace parity::ops::adaln {
namespace {

__global__ void __launch_bounds__(kLanes)
    adaln_tokens(kernels::DeviceView x, kernels::DeviceView scale, kernels::DeviceView shift, std::int64_t S,
                 std::int64_t D, float eps, kernels::DeviceOut y) {
  __shared__ float lanes[kLanes];
  const std::int64_t b = blockIdx.x / S, base = (blockIdx.x % S) * D;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(b, base + i); };
  const float mean = mean_of(kernels::block_sum(lanes, kernels::lane_sum(load, D, l), l), D);
  const float squares =
      kernels::block_sum(lanes, kernels::lane_sum(CentredSquare<decltype(load)>{load, mean}, D, l), l);
  const float inv = inv_std(squares, D, eps);
  for (std::int64_t i = l; i < D; i += kLanes)
    y.store(b * S * D + base + i, modulated(normalised(load(i), mean, inv), scale(b, i), shift(b, i)));
}

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<AdaLN>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    const std::int64_t S = d.extent("S");
    adaln_tokens<<<kernels::blocks(d.extent("B") * S), kLanes>>>(d.in("x"), d.in("scale"), d.in("shift"), S,
                                                                 d.extent("D"), d.param("eps"), d.out("y"));
  });
}

}  // namespace parity::ops::adaln
