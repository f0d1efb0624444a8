// The CUDA LoRA kernel. Every output is one fma chain in the ascending order that
// lora_arith.cuh documents, from 0.0f, through the shared PARITY_HD arithmetic only (this
// file is compiled with --fmad=false), so the results equal the host twin's bit for bit.
//
// y = x W^T and dx = dy W are tiled: a block owns a kTile x kTile output tile, each thread
// kPer x kPer outputs of it, and the reduction index walks ascending through kDepth-deep
// shared-memory stages. A thread's chain therefore visits the reduction in sequential order,
// whatever T, the grid or the tile; no split-K, no atomics. The low-rank tails (over r) run
// in the tiled kernels' epilogues; h, dh, dA and dB (r small) use one thread per output.
// Operands stay in their own layouts: each storage is copied whole and indexed by strides.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <parity/core/bf16.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/lora_forward/lora_arith.cuh>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/subjects/builtin/cuda_memory.cuh>

namespace parity::ops::lora_forward {
namespace {

namespace cuda = subjects::builtin::cuda;

using std::int64_t;
using std::uint16_t;

constexpr int kTile = 64;            // output rows and columns per block
constexpr int kDepth = 16;           // reduction elements per shared-memory stage
constexpr int kSide = 16;            // threads per block side
constexpr int kPer = kTile / kSide;  // outputs per thread along each side
constexpr int kBlockThreads = kSide * kSide;
constexpr int kSimpleThreads = 256;  // threads per block of the one-output kernels
constexpr unsigned kMaxGridY = 65535;

void check(cudaError_t err, const char* call) { cuda::check(err, "lora cuda", call); }

// A 2-D operand in device memory: element (i, j) at data[offset + i * s0 + j * s1].
template <class T>
struct View {
  const T* data;
  int64_t offset, s0, s1;
  __device__ float operator()(int64_t i, int64_t j) const { return value(data[arith::at(offset, s0, s1, i, j)]); }
  View swapped() const { return {data, offset, s1, s0}; }

 private:
  __device__ static float value(uint16_t b) { return bf16_to_float(b); }
  __device__ static float value(float f) { return f; }
};

// Stage [l0, l0 + depth) of rows [i0, i0 + kTile) of `src` into dst[l][i] (zero outside).
// Threads run along whichever index is contiguous in memory, so the loads coalesce.
__device__ void load_stage(float (&dst)[kDepth][kTile + 1], const View<uint16_t>& src, int64_t i0, int64_t rows,
                           int64_t l0, int depth, int tid) {
  const bool along_l = src.s1 == 1;
  for (int e = tid; e < kDepth * kTile; e += kBlockThreads) {
    const int l = along_l ? e % kDepth : e / kTile;
    const int i = along_l ? e / kDepth : e % kTile;
    const bool inside = l < depth && i0 + i < rows;
    dst[l][i] = inside ? src(i0 + i, l0 + l) : 0.0f;
  }
}

// One stage of every chain the thread owns, l ascending. Only the `depth` staged elements
// are visited: a zero product would turn an accumulated -0.0f into +0.0f.
__device__ __forceinline__ void mac_stage(float (&acc)[kPer][kPer], const float (&as)[kDepth][kTile + 1],
                                          const float (&bs)[kDepth][kTile + 1], int depth, int ty, int tx) {
  for (int l = 0; l < depth; ++l) {
    float a[kPer], b[kPer];
#pragma unroll
    for (int p = 0; p < kPer; ++p) {
      a[p] = as[l][ty + kSide * p];
      b[p] = bs[l][tx + kSide * p];
    }
#pragma unroll
    for (int p = 0; p < kPer; ++p)
#pragma unroll
      for (int q = 0; q < kPer; ++q) acc[p][q] = arith::mac(acc[p][q], a[p], b[q]);
  }
}

// out[m, c] = epilogue(sum_l a(m, l) b(c, l), m, c) for m < M, c < C; the sum is one chain
// over l = 0 .. L-1 ascending. Block (x, y) owns rows [64x, 64x + 64), columns [64y, 64y + 64);
// thread (tx, ty) owns rows ty + 16p and columns tx + 16q.
template <class Epilogue>
__global__ void __launch_bounds__(kBlockThreads) tiled_chains(View<uint16_t> a, View<uint16_t> b, int64_t M, int64_t C,
                                                              int64_t L, Epilogue epilogue, uint16_t* out) {
  __shared__ float as[kDepth][kTile + 1];
  __shared__ float bs[kDepth][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kSide + tx;
  const int64_t m0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const int64_t c0 = static_cast<int64_t>(blockIdx.y) * kTile;
  float acc[kPer][kPer] = {};
  for (int64_t l0 = 0; l0 < L; l0 += kDepth) {
    const int depth = L - l0 < kDepth ? static_cast<int>(L - l0) : kDepth;
    load_stage(as, a, m0, M, l0, depth, tid);
    load_stage(bs, b, c0, C, l0, depth, tid);
    __syncthreads();
    if (depth == kDepth) mac_stage(acc, as, bs, kDepth, ty, tx);  // constant trip count: fully unrolled
    else mac_stage(acc, as, bs, depth, ty, tx);
    __syncthreads();
  }
#pragma unroll
  for (int p = 0; p < kPer; ++p)
#pragma unroll
    for (int q = 0; q < kPer; ++q) {
      const int64_t m = m0 + ty + kSide * p, c = c0 + tx + kSide * q;
      if (m < M && c < C) out[m * C + c] = epilogue(acc[p][q], m, c);
    }
}

// y[t, n] from its base chain: the low-rank chain over j, scaled onto it, rounded once.
struct ForwardEpilogue {
  const float* h;  // [T][r]
  int64_t r;
  View<float> B;  // [N, r]
  float scale;
  __device__ uint16_t operator()(float base, int64_t t, int64_t n) const {
    float low = 0.0f;
    for (int64_t j = 0; j < r; ++j) low = arith::mac(low, h[t * r + j], B(n, j));
    return arith::forward_output(base, low, scale);
  }
};

// dx[t, k] from its chain over n, continued by the chain over j of dh[t, j] A[j, k].
struct InputGradientEpilogue {
  const float* dh;  // [T][r]
  int64_t r;
  View<float> A;  // [r, K]
  __device__ uint16_t operator()(float chain, int64_t t, int64_t k) const {
    for (int64_t j = 0; j < r; ++j) chain = arith::mac(chain, dh[t * r + j], A(j, k));
    return arith::input_gradient_output(chain);
  }
};

// h[t][j] = sum_k x[t, k] A[j, k].
__global__ void low_rank_activations(View<uint16_t> x, View<float> A, int64_t T, int64_t r, int64_t K, float* h) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= T * r) return;
  const int64_t t = i / r, j = i % r;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc = arith::mac(acc, x(t, k), A(j, k));
  h[i] = acc;
}

// dh[t][j] = s * sum_n dy[t, n] B[n, j].
__global__ void low_rank_gradient(View<uint16_t> dy, View<float> B, int64_t T, int64_t r, int64_t N, float scale,
                                  float* dh) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= T * r) return;
  const int64_t t = i / r, j = i % r;
  float acc = 0.0f;
  for (int64_t n = 0; n < N; ++n) acc = arith::mac(acc, dy(t, n), B(n, j));
  dh[i] = arith::scaled(scale, acc);
}

// dA[j][k] = sum_t dh[t][j] x[t, k].
__global__ void adapter_a_gradient(const float* dh, View<uint16_t> x, int64_t T, int64_t r, int64_t K, float* dA) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= r * K) return;
  const int64_t j = i / K, k = i % K;
  float acc = 0.0f;
  for (int64_t t = 0; t < T; ++t) acc = arith::mac(acc, dh[t * r + j], x(t, k));
  dA[i] = acc;
}

// dB[n][j] = s * sum_t dy[t, n] h[t][j].
__global__ void adapter_b_gradient(View<uint16_t> dy, const float* h, int64_t T, int64_t r, int64_t N, float scale,
                                   float* dB) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= N * r) return;
  const int64_t n = i / r, j = i % r;
  float acc = 0.0f;
  for (int64_t t = 0; t < T; ++t) acc = arith::mac(acc, dy(t, n), h[t * r + j]);
  dB[i] = arith::scaled(scale, acc);
}

using cuda::DeviceBuffer;

// A 2-D Tensor's whole storage on the device, with its layout.
struct DeviceOperand {
  explicit DeviceOperand(const Tensor& t)
      : buffer(t.storage_bytes().size()), offset(t.offset()), s0(t.strides()[0]), s1(t.strides()[1]) {
    check(cudaMemcpy(buffer.as<void>(), t.storage_bytes().data(), buffer.bytes(), cudaMemcpyHostToDevice),
          "cudaMemcpy (operand to device)");
  }
  template <class T>
  View<T> view() const {
    return {buffer.as<const T>(), offset, s0, s1};
  }

  DeviceBuffer buffer;
  int64_t offset, s0, s1;
};

DeviceBuffer device_array(int64_t elements, std::size_t width) {
  return DeviceBuffer(static_cast<std::size_t>(elements) * width);
}

// Waits for the kernels and copies a contiguous result into a fresh Tensor's storage.
Tensor fetch(const DeviceBuffer& from, DType dtype, int64_t rows, int64_t cols) {
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (lora kernels)");
  Tensor out = Tensor::zeros(dtype, {rows, cols});
  check(cudaMemcpy(out.storage_bytes().data(), from.as<void>(), out.storage_bytes().size(), cudaMemcpyDeviceToHost),
        "cudaMemcpy (result to host)");
  return out;
}

unsigned simple_blocks(int64_t outputs) {
  return static_cast<unsigned>((outputs + kSimpleThreads - 1) / kSimpleThreads);
}

template <class Epilogue>
void launch_tiled(View<uint16_t> a, View<uint16_t> b, int64_t M, int64_t C, int64_t L, const Epilogue& epilogue,
                  uint16_t* out, const char* name) {
  const dim3 grid(static_cast<unsigned>((M + kTile - 1) / kTile), static_cast<unsigned>((C + kTile - 1) / kTile));
  if ((C + kTile - 1) / kTile > kMaxGridY)
    throw std::runtime_error(std::string("lora cuda: ") + name + ": " + std::to_string(C) +
                             " output columns exceed the grid");
  tiled_chains<<<grid, dim3(kSide, kSide)>>>(a, b, M, C, L, epilogue, out);
  check(cudaGetLastError(), name);
}

// parity's kernel as a subject of lora_forward: y.
OpOutputs forward_cuda(const OpCall& call) {
  const LoraOperandRefs in = operand_refs_of(call);
  const int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const DeviceOperand x(in.x), W(in.W), A(in.A), B(in.B);
  const DeviceBuffer h = device_array(T * r, sizeof(float));
  const DeviceBuffer y = device_array(T * N, sizeof(uint16_t));
  low_rank_activations<<<simple_blocks(T * r), kSimpleThreads>>>(x.view<uint16_t>(), A.view<float>(), T, r, K,
                                                                 h.as<float>());
  check(cudaGetLastError(), "low_rank_activations<<<>>>");
  launch_tiled(x.view<uint16_t>(), W.view<uint16_t>(), T, N, K,
               ForwardEpilogue{h.as<float>(), r, B.view<float>(), in.scale}, y.as<uint16_t>(),
               "tiled_chains<ForwardEpilogue><<<>>>");
  return {{"y", fetch(y, DType::bf16, T, N)}};
}

// parity's kernel as a subject of lora_backward: dx, dA and dB.
OpOutputs backward_cuda(const OpCall& call) {
  const LoraOperandRefs in = operand_refs_of(call);
  const Tensor& dy = call.input("dy");
  check_dy(in, dy);
  const int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
  const DeviceOperand x(in.x), W(in.W), A(in.A), B(in.B), g(dy);
  const DeviceBuffer h = device_array(T * r, sizeof(float));
  const DeviceBuffer dh = device_array(T * r, sizeof(float));
  const DeviceBuffer dx = device_array(T * K, sizeof(uint16_t));
  const DeviceBuffer dA = device_array(r * K, sizeof(float));
  const DeviceBuffer dB = device_array(N * r, sizeof(float));
  low_rank_activations<<<simple_blocks(T * r), kSimpleThreads>>>(x.view<uint16_t>(), A.view<float>(), T, r, K,
                                                                 h.as<float>());
  check(cudaGetLastError(), "low_rank_activations<<<>>>");
  low_rank_gradient<<<simple_blocks(T * r), kSimpleThreads>>>(g.view<uint16_t>(), B.view<float>(), T, r, N, in.scale,
                                                              dh.as<float>());
  check(cudaGetLastError(), "low_rank_gradient<<<>>>");
  // dx[t, k] = sum_n dy[t, n] W[n, k]: W read as the [K, N] operand b(k, n).
  launch_tiled(g.view<uint16_t>(), W.view<uint16_t>().swapped(), T, K, N,
               InputGradientEpilogue{dh.as<float>(), r, A.view<float>()}, dx.as<uint16_t>(),
               "tiled_chains<InputGradientEpilogue><<<>>>");
  adapter_a_gradient<<<simple_blocks(r * K), kSimpleThreads>>>(dh.as<float>(), x.view<uint16_t>(), T, r, K,
                                                               dA.as<float>());
  check(cudaGetLastError(), "adapter_a_gradient<<<>>>");
  adapter_b_gradient<<<simple_blocks(N * r), kSimpleThreads>>>(g.view<uint16_t>(), h.as<float>(), T, r, N, in.scale,
                                                               dB.as<float>());
  check(cudaGetLastError(), "adapter_b_gradient<<<>>>");
  return {
      {"dx", fetch(dx, DType::bf16, T, K)}, {"dA", fetch(dA, DType::f32, r, K)}, {"dB", fetch(dB, DType::f32, N, r)}};
}

}  // namespace

std::unique_ptr<OpSubject> make_forward_cuda_kernel() { return make_op_subject<RunSubject<&forward_cuda>>(); }
std::unique_ptr<OpSubject> make_backward_cuda_kernel() { return make_op_subject<RunSubject<&backward_cuda>>(); }

}  // namespace parity::ops::lora_forward
