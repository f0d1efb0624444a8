// The CUDA RoPE kernel: one thread per rotated pair (t, h, j) and per pass-through dim, all
// arithmetic rope_kernel.cuh's PARITY_HD code (compiled with --fmad=false), so y equals the host
// twin's bit for bit.
#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/rope/rope_kernel.cuh>
#include <parity/ops/rope/rope_op.hpp>

namespace parity::ops::rope {
namespace {

constexpr int kThreads = 256;

struct Shape {
  std::int64_t T, H, P, Q;
  bool interleaved;
  // Work items per head: P pairs, then Q pass-through dims.
  __host__ __device__ std::int64_t items() const { return T * H * (P + Q); }
};

__global__ void __launch_bounds__(kThreads)
    rope_pairs(kernels::DeviceView x, kernels::DeviceView cos, kernels::DeviceView sin, Shape n, kernels::DeviceOut y) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (k >= n.items()) return;
  const std::int64_t per_head = n.P + n.Q, t = k / (n.H * per_head), h = k / per_head % n.H, j = k % per_head;
  const std::int64_t W = n.H * (2 * n.P + n.Q), head = h * (2 * n.P + n.Q);
  if (j >= n.P) {  // pass-through dim 2P + (j - P)
    const std::int64_t i = head + n.P + j;
    y.store(t * W + i, x(t, i));
    return;
  }
  const std::int64_t i1 = head + pair_first(j, n.P, n.interleaved), i2 = head + pair_second(j, n.P, n.interleaved);
  const float x1 = x(t, i1), x2 = x(t, i2), c = cos(t, j), s = sin(t, j);
  y.store(t * W + i1, rotated_first(x1, x2, c, s));
  y.store(t * W + i2, rotated_second(x1, x2, c, s));
}

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<Rope>({}, [](const kernels::DeviceCall& d) {
    const Shape n{d.extent("T"), d.extent("H"), d.extent("P"), d.extent("Q"), d.param("interleaved") != 0};
    rope_pairs<<<kernels::blocks(n.items(), kThreads), kThreads>>>(d.in("x"), d.in("cos"), d.in("sin"), n, d.out("y"));
  });
}

}  // namespace parity::ops::rope
