// The CUDA SwiGLU kernels: one thread per output element (the backward: per element of dy, its da
// and db), all arithmetic swiglu_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y and
// dx equal the host twins' bit for bit.
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/swiglu/swiglu_backward_op.hpp>
#include <parity/ops/swiglu/swiglu_kernel.cuh>
#include <parity/ops/swiglu/swiglu_op.hpp>

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

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<Swiglu>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    const std::int64_t T = d.extent("T"), F = d.extent("F");
    swiglu_elements<<<kernels::blocks(T * F, kThreads), kThreads>>>(d.in("x"), T, F, d.out("y"));
  });
}

std::unique_ptr<OpSubject> make_cuda_backward_kernel() {
  return kernels::cuda_kernel<SwigluBackward>(declared_arithmetic(), [](const kernels::DeviceCall& d) {
    const std::int64_t T = d.extent("T"), F = d.extent("F");
    swiglu_backward_elements<<<kernels::blocks(T * F, kThreads), kThreads>>>(d.in("x"), d.in("dy"), T, F, d.out("dx"));
  });
}

}  // namespace parity::ops::swiglu
