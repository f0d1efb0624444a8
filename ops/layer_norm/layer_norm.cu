// The CUDA LayerNorm kernel: one block of kLanes threads per row, two passes. All arithmetic is
// layer_norm_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host
// twin's bit for bit. Operands stay in their own layouts (device_operand.cuh).
#include <cstdint>

#include <parity/ops/kernels/block_sum.cuh>
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/layer_norm/layer_norm_kernel.cuh>

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

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), D = call.extent("D");
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, D});
    if (T == 0 || D == 0) return {{"y", std::move(y)}};  // no element: a grid of no blocks is no launch
    const kernels::DeviceInput x(call.input("x"), "layer_norm cuda");
    const kernels::OptionalDeviceInput w(call.has_input("w") ? &call.input("w") : nullptr, "layer_norm cuda"),
        b(call.has_input("b") ? &call.input("b") : nullptr, "layer_norm cuda");
    kernels::DeviceOutput out(y, "layer_norm cuda");
    layer_norm_rows<<<static_cast<unsigned>(T), kLanes>>>(x.view(), w.view(), b.view(), w.present(), D,
                                                          static_cast<float>(call.param("eps")), out.out());
    out.copy_back();
    return {{"y", std::move(y)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }

}  // namespace parity::ops::layer_norm
