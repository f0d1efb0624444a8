// The DiT rows on the device. Every kernel is a grid-stride loop over independent outputs
// (elements or rows); each output is evaluated by one thread through
// the PARITY_HD arithmetic of model_arith.cuh, in its documented order (this file is
// compiled with --fmad=false), so the results equal the host twins' bit for bit whatever
// the grid. (The model's projections and attention are parity's kernels of the ops linear and
// sdpa: ops/linear/linear.cu, ops/sdpa/sdpa.cu.)
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include <parity/subjects/rlkernels/cuda_memory.cuh>
#include <parity/subjects/rlkernels/model_arith.cuh>
#include <parity/subjects/rlkernels/model_rows_checks.hpp>
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>
#include <parity/subjects/rlkernels/model_swiglu.hpp>

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

__global__ void linear_forward_kernel(const float* x, const float* W, int64_t M, int64_t N, int64_t K,
                                      float* y) {
  for (int64_t e = first_index(); e < M * N; e += grid_stride()) {
    const int64_t m = e / N, n = e % N;
    y[e] = chain(0.0f, x + m * K, 1, W + n * K, 1, K);
  }
}

__global__ void linear_backward_kernel(const float* dy, const float* W, int64_t M, int64_t N,
                                       int64_t K, float* dx) {
  for (int64_t e = first_index(); e < M * K; e += grid_stride()) {
    const int64_t m = e / K, k = e % K;
    dx[e] = chain(0.0f, dy + m * N, 1, W + k, K, N);
  }
}

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

__global__ void swiglu_gate_kernel(const float* a, const float* g, int64_t n, float* u) {
  for (int64_t e = first_index(); e < n; e += grid_stride()) u[e] = swiglu_gate(a[e], g[e]);
}

// out [M, 2F]: da in columns [0, F), dg in [F, 2F).
__global__ void swiglu_gate_backward_kernel(const float* a, const float* g, const float* du, int64_t M,
                                            int64_t F, float* out) {
  for (int64_t e = first_index(); e < M * F; e += grid_stride()) {
    const int64_t m = e / F, f = e % F;
    swiglu_gate_backward(a[e], g[e], du[e], &out[m * 2 * F + f], &out[m * 2 * F + F + f]);
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

// The device's elementwise SwiGLU steps, for model_swiglu.hpp.
struct CudaRows {
  static Tensor linear_forward(const Tensor& x, const Tensor& W) {
    return cuda::linear_forward(x, W);
  }
  static Tensor linear_backward_input(const Tensor& dy, const Tensor& W) {
    return cuda::linear_backward_input(dy, W);
  }
  static Tensor swiglu_gate(const Tensor& a, const Tensor& g) {
    const DeviceArray ad(a), gd(g);
    DeviceOutput u(a.shape());
    launch(swiglu_gate_kernel, a.numel(), "swiglu_gate_kernel<<<>>>", ad.data(), gd.data(), a.numel(),
           u.data());
    return u.fetch();
  }
  static Tensor swiglu_gate_backward(const Tensor& a, const Tensor& g, const Tensor& du) {
    const int64_t M = a.dim(0), F = a.dim(1);
    const DeviceArray ad(a), gd(g), dud(du);
    DeviceOutput out({M, 2 * F});
    launch(swiglu_gate_backward_kernel, M * F, "swiglu_gate_backward_kernel<<<>>>", ad.data(), gd.data(),
           dud.data(), M, F, out.data());
    return out.fetch();
  }
};

}  // namespace

Tensor linear_forward(const Tensor& x, const Tensor& W) {
  const LinearDims d = check_linear(x, W);
  const DeviceArray xd(x), Wd(W);
  DeviceOutput y({d.M, d.N});
  launch(linear_forward_kernel, d.M * d.N, "linear_forward_kernel<<<>>>", xd.data(), Wd.data(), d.M, d.N, d.K,
         y.data());
  return y.fetch();
}

Tensor linear_backward_input(const Tensor& dy, const Tensor& W) {
  const LinearDims d = check_linear_backward(dy, W);
  const DeviceArray g(dy), Wd(W);
  DeviceOutput dx({d.M, d.K});
  launch(linear_backward_kernel, d.M * d.K, "linear_backward_kernel<<<>>>", g.data(), Wd.data(), d.M,
         d.N, d.K, dx.data());
  return dx.fetch();
}

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

Tensor swiglu_forward(const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2) {
  return swiglu_forward_with<CudaRows>(h, W1, W3, W2);
}

Tensor swiglu_backward_input(const Tensor& h, const Tensor& W1, const Tensor& W3,
                             const Tensor& W2, const Tensor& d_out) {
  return swiglu_backward_input_with<CudaRows>(h, W1, W3, W2, d_out);
}

}  // namespace parity::subjects::rlkernels::model::cuda
