// The CUDA LayerNorm kernel: one block of kLanes threads per row, two passes. All arithmetic is
// layer_norm_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host
// twin's bit for bit. Operands stay in their own layouts (device_operand.cuh).
#include <cstdint>

#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/layer_norm/layer_norm_kernel.cuh>
#include <parity/ops/layer_norm/layer_norm_op.hpp>

namespace parity::ops::layer_norm {
namespace {

// The lane sum of `term` over n, in lane_sum.cuh's order, folded as the host twin folds it.
template <class Term>
__device__ float row_sum(float* lanes, const Term& term, std::int64_t n, int l) {
  return kernels::block_sum(lanes, kernels::lane_sum(term, n, l), l);
}

__global__ void __launch_bounds__(kLanes)
    layer_norm_rows(kernels::DeviceView x, kernels::DeviceView w, kernels::DeviceView b, bool affine, std::int64_t D,
                    float eps, kernels::DeviceOut y) {
  __shared__ float lanes[kLanes];
  const std::int64_t t = blockIdx.x;
  const int l = static_cast<int>(threadIdx.x);
  const auto load = [&](std::int64_t i) { return x(t, i); };
  const float mean = row_mean(row_sum(lanes, load, D, l), D);
  const float inv = inv_std(row_var(row_sum(lanes, Deviation2<decltype(load)>{load, mean}, D, l), D), eps);
  for (std::int64_t i = l; i < D; i += kLanes)
    y.store(t * D + i, normalise(x(t, i), mean, inv, affine, affine ? w(0, i) : 0.0f, affine ? b(0, i) : 0.0f));
}

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<LayerNorm>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    layer_norm_rows<<<kernels::blocks(d.extent("T")), kLanes>>>(d.in("x"), d.optional("w"), d.optional("b"), d.has("w"),
                                                                d.extent("D"), d.param("eps"), d.out("y"));
  });
}

}  // namespace parity::ops::layer_norm
