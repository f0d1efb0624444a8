// The DiT rows on the device. Every kernel is a grid-stride loop over independent outputs
// (elements or rows); each output is evaluated by one thread through
// the PARITY_HD arithmetic of model_arith.cuh, in its documented order (this file is
// compiled with --fmad=false), so the results equal the host twins' bit for bit whatever
// the grid. (The model's linears, attention and SwiGLU gate are parity's kernels of the ops
// linear, sdpa, sdpa_backward and swiglu: ops/.)
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include <parity/subjects/rlkernels/cuda_memory.cuh>
#include <parity/subjects/rlkernels/model_arith.cuh>
#include <parity/subjects/rlkernels/model_rows_checks.hpp>
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>

namespace parity::subjects::rlkernels::model::cuda {
namespace {

using std::int64_t;
using rlkernels::cuda::DeviceBuffer;

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 4096;

void check(cudaError_t err, const char* call) { rlkernels::cuda::check(err, "model rows cuda", call); }

// Index of this thread's first output and the grid-wide stride.
__device__ int64_t first_index() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ int64_t grid_stride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

unsigned blocks_for(int64_t outputs) {
  const int64_t b = (outputs + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

// A float32 array on the device, copied from the host.
struct DeviceArray {
  explicit DeviceArray(const std::vector<float>& v) : buffer(v.size() * sizeof(float)) {
    check(cudaMemcpy(buffer.as<void>(), v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy (operand to device)");
  }
  explicit DeviceArray(const Tensor& t) : DeviceArray(f32_values(t)) {}
  float* data() const { return buffer.as<float>(); }
  DeviceBuffer buffer;
};

// A zeroed device output of `shape`; fetch() waits for the kernels and copies it back.
struct DeviceOutput {
  explicit DeviceOutput(std::vector<int64_t> shape)
      : host(std::move(shape)), buffer(host.tensor.storage_bytes().size()) {
    check(cudaMemset(buffer.as<void>(), 0, buffer.bytes()), "cudaMemset (output)");
  }
  float* data() const { return buffer.as<float>(); }
  Tensor fetch() {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (model kernels)");
    check(cudaMemcpy(host.data, buffer.as<void>(), host.tensor.storage_bytes().size(),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy (result to host)");
    return host.tensor;
  }
  F32Output host;
  DeviceBuffer buffer;
};

template <class Kernel, class... Args>
void launch(Kernel kernel, int64_t outputs, const char* name, Args... args) {
  kernel<<<blocks_for(outputs), kThreads>>>(args...);
  check(cudaGetLastError(), name);
}

// ---- kernels ---------------------------------------------------------------------------

__global__ void rms_forward_kernel(const float* x, const float* w, int64_t M, int64_t C, float eps,
                                   float* y) {
  for (int64_t m = first_index(); m < M; m += grid_stride()) rms_norm_row(x + m * C, w, C, eps, y + m * C);
}

__global__ void rms_backward_kernel(const float* x, const float* w, const float* dy, int64_t M,
                                    int64_t C, float eps, float* dx) {
  for (int64_t m = first_index(); m < M; m += grid_stride())
    rms_norm_backward_row(x + m * C, w, C, eps, dy + m * C, dx + m * C);
}

// One thread per (b, t, h) row of Dh elements.
__global__ void rope_kernel(const float* x, const float* cos, const float* sin, RopeDims d,
                            float sign, float* out) {
  const int64_t half = d.R / 2;
  for (int64_t row = first_index(); row < d.B * d.T * d.H; row += grid_stride()) {
    const int64_t t = (row / d.H) % d.T, base = row * d.Dh;
    for (int64_t i = 0; i < half; ++i)
      rope_pair(x[base + i], x[base + i + half], cos[t * half + i], sign * sin[t * half + i],
                &out[base + i], &out[base + i + half]);
    for (int64_t i = d.R; i < d.Dh; ++i) out[base + i] = x[base + i];
  }
}

// out [M, 2F] = [da | dg] for ag [M, 2F] = [a | g] and du [M, F].
__global__ void swiglu_gate_backward_kernel(const float* ag, const float* du, int64_t M, int64_t F, float* out) {
  for (int64_t e = first_index(); e < M * F; e += grid_stride()) {
    const int64_t m = e / F, f = e % F, a = m * 2 * F + f, g = a + F;
    model::swiglu_gate_backward(ag[a], ag[g], du[e], &out[a], &out[g]);
  }
}

Tensor rope_apply(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims, float sign,
                  const char* what) {
  const RopeDims d = check_rope(x, cos, sin, rope_dims, what);
  const DeviceArray xd(x), cd(cos), sd(sin);
  DeviceOutput out(x.shape());
  launch(rope_kernel, d.B * d.T * d.H, "rope_kernel<<<>>>", xd.data(), cd.data(), sd.data(), d, sign,
         out.data());
  return out.fetch();
}

}  // namespace

Tensor rms_norm_forward(const Tensor& x, const Tensor* w, float eps) {
  const RowDims d = check_rms(x, w, nullptr, "rms_norm_forward");
  const DeviceArray xd(x), wd(w ? f32_values(*w) : std::vector<float>{});
  DeviceOutput y(x.shape());
  launch(rms_forward_kernel, d.M, "rms_forward_kernel<<<>>>", xd.data(),
         w ? static_cast<const float*>(wd.data()) : nullptr, d.M, d.C, eps, y.data());
  return y.fetch();
}

Tensor rms_norm_backward_input(const Tensor& x, const Tensor* w, float eps, const Tensor& dy) {
  const RowDims d = check_rms(x, w, &dy, "rms_norm_backward_input");
  const DeviceArray xd(x), wd(w ? f32_values(*w) : std::vector<float>{}), g(dy);
  DeviceOutput dx(x.shape());
  launch(rms_backward_kernel, d.M, "rms_backward_kernel<<<>>>", xd.data(),
         w ? static_cast<const float*>(wd.data()) : nullptr, g.data(), d.M, d.C, eps, dx.data());
  return dx.fetch();
}

Tensor rope_forward(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims) {
  return rope_apply(x, cos, sin, rope_dims, 1.0f, "rope_forward");
}

Tensor rope_backward_input(const Tensor& dy, const Tensor& cos, const Tensor& sin, int rope_dims) {
  return rope_apply(dy, cos, sin, rope_dims, -1.0f, "rope_backward_input");
}

Tensor swiglu_gate_backward(const Tensor& ag, const Tensor& du) {
  const SwigluGateDims d = check_swiglu_gate_backward(ag, du);
  const DeviceArray agd(ag), dud(du);
  DeviceOutput out({d.M, 2 * d.F});
  launch(swiglu_gate_backward_kernel, d.M * d.F, "swiglu_gate_backward_kernel<<<>>>", agd.data(), dud.data(), d.M, d.F,
         out.data());
  return out.fetch();
}

}  // namespace parity::subjects::rlkernels::model::cuda
