// The CUDA SwiGLU kernels: one thread per output element (the backward: per element of dy, its da
// and db), all arithmetic swiglu_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y and
// dx equal the host twins' bit for bit.
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/swiglu/swiglu_kernel.cuh>

namespace parity::ops::swiglu {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    swiglu_elements(kernels::DeviceView x, std::int64_t T, std::int64_t F, kernels::DeviceOut y) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (k >= T * F) return;
  const std::int64_t t = k / F, i = k % F;
  y.store(k, gated(silu(x(t, i)), x(t, F + i)));
}

__global__ void __launch_bounds__(kThreads)
    swiglu_backward_elements(kernels::DeviceView x, kernels::DeviceView dy, std::int64_t T, std::int64_t F,
                             kernels::DeviceOut dx) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (k >= T * F) return;
  const std::int64_t t = k / F, i = k % F;
  const Gradients g = gradients(x(t, i), x(t, F + i), dy(t, i));
  dx.store(t * 2 * F + i, g.da);
  dx.store(t * 2 * F + F + i, g.db);
}

unsigned blocks(std::int64_t elements) { return static_cast<unsigned>((elements + kThreads - 1) / kThreads); }

class CudaKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), F = call.extent("F");
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, F});
    if (T * F == 0) return {{"y", std::move(y)}};  // no element: a grid of no blocks is no launch
    const kernels::DeviceInput x(call.input("x"), "swiglu cuda");
    kernels::DeviceOutput out(y, "swiglu cuda");
    swiglu_elements<<<blocks(T * F), kThreads>>>(x.view(), T, F, out.out());
    out.copy_back();
    return {{"y", std::move(y)}};
  }
};

class CudaBackwardKernel : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), F = call.extent("F");
    Tensor dx = Tensor::zeros(call.output_dtype("dx"), {T, 2 * F});
    if (T * F == 0) return {{"dx", std::move(dx)}};  // no element: a grid of no blocks is no launch
    const kernels::DeviceInput x(call.input("x"), "swiglu_backward cuda"), dy(call.input("dy"), "swiglu_backward cuda");
    kernels::DeviceOutput out(dx, "swiglu_backward cuda");
    swiglu_backward_elements<<<blocks(T * F), kThreads>>>(x.view(), dy.view(), T, F, out.out());
    out.copy_back();
    return {{"dx", std::move(dx)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaKernel>(); }
std::unique_ptr<OpSubject> make_cuda_backward_kernel() { return std::make_unique<CudaBackwardKernel>(); }

}  // namespace parity::ops::swiglu
