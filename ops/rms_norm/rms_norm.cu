// The CUDA RMSNorm kernels, forward and backward: one block of kLanes threads per row. All
// arithmetic is rms_norm_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y and dx equal
// the host twins' bit for bit. Operands stay in their own layouts (device_operand.cuh).
#include <cstdint>

#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/rms_norm/rms_norm_backward_op.hpp>
#include <parity/ops/rms_norm/rms_norm_kernel.cuh>
#include <parity/ops/rms_norm/rms_norm_op.hpp>

namespace parity::ops::rms_norm {
namespace {

__global__ void __launch_bounds__(kLanes)
    rms_norm_rows(kernels::DeviceView x, kernels::DeviceView w, std::int64_t D, float eps, kernels::DeviceOut y) {
  __shared__ float lanes[kLanes];
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(t, i); };
  const float inv =
      inv_rms(kernels::block_sum(lanes, kernels::lane_sum(Square<decltype(load)>{load}, D, l), l), D, eps);
  for (std::int64_t i = l; i < D; i += kLanes) y.store(t * D + i, normalise(x(t, i), inv, w(0, i)));
}

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

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<RmsNorm>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    rms_norm_rows<<<kernels::blocks(d.extent("T")), kLanes>>>(d.in("x"), d.in("w"), d.extent("D"), d.param("eps"),
                                                              d.out("y"));
  });
}

std::unique_ptr<OpSubject> make_cuda_backward_kernel() {
  return kernels::cuda_kernel<RmsNormBackward>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    rms_norm_backward_rows<<<kernels::blocks(d.extent("T")), kLanes>>>(d.in("x"), d.in("w"), d.in("dy"), d.extent("D"),
                                                                       d.param("eps"), d.out("dx"));
  });
}

}  // namespace parity::ops::rms_norm
