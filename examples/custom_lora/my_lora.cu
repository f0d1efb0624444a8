// The CUDA kernel of my LoRA: one thread per output element, running the same element
// functions as the host path (my_lora_math.cuh), so both give the same bits.
#include <cuda_runtime.h>

#include <stdexcept>
#include <vector>

#include "my_lora.hpp"
#include "my_lora_math.cuh"

namespace my_lora {
namespace {

using parity::DType;
using parity::Tensor;
using parity::ops::OpCall;
using parity::ops::OpOutputs;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// A device copy of a buffer, freed with it.
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit DeviceBuffer(std::size_t n) : count(n) { check(cudaMalloc(&ptr, (n ? n : 1) * sizeof(T)), "cudaMalloc"); }
  DeviceBuffer(const T* host, std::size_t n) : DeviceBuffer(n) {
    check(cudaMemcpy(ptr, host, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void to_host(T* host) const {
    check(cudaMemcpy(host, ptr, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }
};

// A strided operand on the device: its whole storage, viewed at its offset and strides.
template <class T>
struct DeviceOperand {
  DeviceBuffer<T> storage;
  View<T> view;
  explicit DeviceOperand(const Tensor& t)
      : storage(t.storage<T>(), static_cast<std::size_t>(t.storage_elements())),
        view{storage.ptr + t.offset(), t.strides()[0], t.strides()[1]} {}
};

struct Operands {
  DeviceOperand<std::uint16_t> x, W;
  DeviceOperand<float> A, B;
  std::int64_t T, K, N, r;
  float s;
  explicit Operands(const OpCall& call)
      : x(call.input("x")),
        W(call.input("W")),
        A(call.input("A")),
        B(call.input("B")),
        T(call.extent("T")),
        K(call.extent("K")),
        N(call.extent("N")),
        r(call.extent("r")),
        s(static_cast<float>(call.param("scale"))) {}
};

constexpr int kThreads = 128;
int blocks(std::int64_t n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

// Launches f(i, j) for every (i, j) in [0, rows) x [0, cols).
template <class F>
__global__ void each_element(std::int64_t rows, std::int64_t cols, F f) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows * cols) f(i / cols, i % cols);
}
template <class F>
void launch(std::int64_t rows, std::int64_t cols, F f) {
  if (rows * cols == 0) return;
  each_element<<<blocks(rows * cols), kThreads>>>(rows, cols, f);
  check(cudaGetLastError(), "kernel launch");
}

// A [rows, cols] contiguous host tensor holding `device`'s elements.
template <class T>
Tensor to_host(const DeviceBuffer<T>& device, DType dtype, std::int64_t rows, std::int64_t cols) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  device.to_host(t.storage<T>());
  return t;
}

class CudaForward final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Operands o(call);
    DeviceBuffer<float> hs(static_cast<std::size_t>(o.T * o.r));
    DeviceBuffer<std::uint16_t> out(static_cast<std::size_t>(o.T * o.N));
    const auto x = o.x.view, W = o.W.view;
    const auto A = o.A.view, B = o.B.view;
    float* h_ptr = hs.ptr;
    std::uint16_t* y_ptr = out.ptr;
    const std::int64_t K = o.K, N = o.N, r = o.r;
    const float s = o.s;
    launch(o.T, r, [=] __device__(std::int64_t t, std::int64_t j) { h_ptr[t * r + j] = h(x, A, t, j, K); });
    launch(o.T, N,
           [=] __device__(std::int64_t t, std::int64_t n) { y_ptr[t * N + n] = y(x, W, h_ptr, B, s, t, n, K, r); });
    return {{"y", to_host(out, DType::bf16, o.T, N)}};
  }
};

class CudaBackward final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Operands o(call);
    const DeviceOperand<std::uint16_t> dy_d(call.input("dy"));
    const auto x = o.x.view, W = o.W.view, dyv = dy_d.view;
    const auto A = o.A.view, B = o.B.view;
    const std::int64_t T = o.T, K = o.K, N = o.N, r = o.r;
    const float s = o.s;
    DeviceBuffer<float> hs(static_cast<std::size_t>(T * r)), dhs(static_cast<std::size_t>(T * r));
    DeviceBuffer<std::uint16_t> dx_d(static_cast<std::size_t>(T * K));
    DeviceBuffer<float> dA_d(static_cast<std::size_t>(r * K)), dB_d(static_cast<std::size_t>(N * r));
    float *h_ptr = hs.ptr, *dh_ptr = dhs.ptr, *dA_ptr = dA_d.ptr, *dB_ptr = dB_d.ptr;
    std::uint16_t* dx_ptr = dx_d.ptr;
    launch(T, r, [=] __device__(std::int64_t t, std::int64_t j) {
      h_ptr[t * r + j] = h(x, A, t, j, K);
      dh_ptr[t * r + j] = dh(dyv, B, s, t, j, N);
    });
    launch(T, K,
           [=] __device__(std::int64_t t, std::int64_t k) { dx_ptr[t * K + k] = dx(dyv, W, dh_ptr, A, t, k, N, r); });
    launch(r, K, [=] __device__(std::int64_t j, std::int64_t k) { dA_ptr[j * K + k] = dA(dh_ptr, x, j, k, T, r); });
    launch(N, r, [=] __device__(std::int64_t n, std::int64_t j) { dB_ptr[n * r + j] = dB(dyv, h_ptr, s, n, j, T, r); });
    return {{"dx", to_host(dx_d, DType::bf16, T, K)},
            {"dA", to_host(dA_d, DType::f32, r, K)},
            {"dB", to_host(dB_d, DType::f32, N, r)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_forward() { return std::make_unique<CudaForward>(); }
std::unique_ptr<OpSubject> make_cuda_backward() { return std::make_unique<CudaBackward>(); }

std::string cuda_unavailable() {
  int devices = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess)
    return std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
  return devices > 0 ? "" : "no CUDA device";
}

}  // namespace my_lora
