// mylib's CUDA RMSNorm (mylib.cpp registers it): one thread per row, mylib.cpp's arithmetic.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

__global__ void rms_norm_rows(const float* x, const float* w, float* y, std::int64_t T, std::int64_t D, float eps,
                              bool broken) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= T) return;
  const float* row = x + t * D;
  float sum = 0.0f;
  for (std::int64_t i = 0; i < D; ++i) sum = sum + row[i] * row[i];
  const float mean = sum / static_cast<float>(D);
  const float inv = broken ? 1.0f / (sqrtf(mean) + eps) : 1.0f / sqrtf(mean + eps);
  for (std::int64_t i = 0; i < D; ++i) y[t * D + i] = (row[i] * inv) * w[i];
}

}  // namespace

void mylib_rms_norm_cuda(const float* x, const float* w, float* y, std::int64_t T, std::int64_t D, float eps,
                         bool broken) {
  constexpr int kThreads = 128;
  rms_norm_rows<<<static_cast<unsigned>((T + kThreads - 1) / kThreads), kThreads>>>(x, w, y, T, D, eps, broken);
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    throw std::runtime_error(std::string("mylib::rms_norm: ") + cudaGetErrorString(e));
}
