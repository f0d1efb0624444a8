// The CUDA SwiGLU kernel: one thread per output element, all arithmetic swiglu_arith.cuh's
// PARITY_HD code (compiled with --fmad=false), so y equals the host twin's bit for bit.
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/swiglu/swiglu_arith.cuh>
#include <parity/ops/swiglu/swiglu_cuda.hpp>

namespace parity::ops::swiglu {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) swiglu_elements(kernels::DeviceView x, std::int64_t T, std::int64_t F,
                                                            kernels::DeviceOut y) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (k >= T * F) return;
  const std::int64_t t = k / F, i = k % F;
  y.store(k, gated(silu(x(t, i)), x(t, F + i)));
}

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), F = call.extent("F");
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, F});
    if (T * F == 0) return {{"y", std::move(y)}};  // no element: a grid of no blocks is no launch
    const kernels::DeviceInput x(call.input("x"), "swiglu cuda");
    kernels::DeviceOutput out(y, "swiglu cuda");
    const auto blocks = static_cast<unsigned>((T * F + kThreads - 1) / kThreads);
    swiglu_elements<<<blocks, kThreads>>>(x.view(), T, F, out.out());
    out.copy_back();
    return {{"y", std::move(y)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }

}  // namespace parity::ops::swiglu
