#pragma once
// The arithmetic of my LoRA kernel, one output element per function, shared bit for bit by the
// CUDA kernel (my_lora.cu) and the host path (my_lora_host.cpp). float32, explicit fma, each
// reduction in ascending order:
//
//   h[t,j]  = sum_k x[t,k] A[j,k]               dh[t,j] = s * sum_n dy[t,n] B[n,j]
//   y[t,n]  = bf16( fma(s, sum_j h[t,j] B[n,j], sum_k x[t,k] W[n,k]) )
//   dx[t,k] = bf16( sum_n dy[t,n] W[n,k] continued by sum_j dh[t,j] A[j,k] )
//   dA[j,k] = sum_t dh[t,j] x[t,k]              dB[n,j] = s * sum_t dy[t,n] h[t,j]
//
// Compile without contraction (-ffp-contract=off, nvcc --fmad=false): CMakeLists.txt does.
#include <cmath>
#include <cstdint>

#include <parity/core/bf16.hpp>  // parity's bf16 conversions and PARITY_HD (__host__ __device__ under nvcc)

namespace my_lora {

// A read-only strided 2-D operand: element (i, j) is data[i * s0 + j * s1].
template <class T>
struct View {
  const T* data;
  std::int64_t s0, s1;
  PARITY_HD float operator()(std::int64_t i, std::int64_t j) const;
};
template <>
PARITY_HD float View<std::uint16_t>::operator()(std::int64_t i, std::int64_t j) const {
  return parity::bf16_to_float(data[i * s0 + j * s1]);
}
template <>
PARITY_HD float View<float>::operator()(std::int64_t i, std::int64_t j) const {
  return data[i * s0 + j * s1];
}
using Bf16View = View<std::uint16_t>;
using F32View = View<float>;

PARITY_HD float h(Bf16View x, F32View A, std::int64_t t, std::int64_t j, std::int64_t K) {
  float acc = 0.0f;
  for (std::int64_t k = 0; k < K; ++k) acc = fmaf(x(t, k), A(j, k), acc);
  return acc;
}

PARITY_HD float dh(Bf16View dy, F32View B, float s, std::int64_t t, std::int64_t j, std::int64_t N) {
  float acc = 0.0f;
  for (std::int64_t n = 0; n < N; ++n) acc = fmaf(dy(t, n), B(n, j), acc);
  return s * acc;
}

// h and dh: [T, r] contiguous float32.
PARITY_HD std::uint16_t y(Bf16View x, Bf16View W, const float* h, F32View B, float s, std::int64_t t, std::int64_t n,
                          std::int64_t K, std::int64_t r) {
  float base = 0.0f, low_rank = 0.0f;
  for (std::int64_t k = 0; k < K; ++k) base = fmaf(x(t, k), W(n, k), base);
  for (std::int64_t j = 0; j < r; ++j) low_rank = fmaf(h[t * r + j], B(n, j), low_rank);
  return parity::bf16_from_float_rne(fmaf(s, low_rank, base));
}

PARITY_HD std::uint16_t dx(Bf16View dy, Bf16View W, const float* dh, F32View A, std::int64_t t, std::int64_t k,
                           std::int64_t N, std::int64_t r) {
  float acc = 0.0f;
  for (std::int64_t n = 0; n < N; ++n) acc = fmaf(dy(t, n), W(n, k), acc);
  for (std::int64_t j = 0; j < r; ++j) acc = fmaf(dh[t * r + j], A(j, k), acc);
  return parity::bf16_from_float_rne(acc);
}

PARITY_HD float dA(const float* dh, Bf16View x, std::int64_t j, std::int64_t k, std::int64_t T, std::int64_t r) {
  float acc = 0.0f;
  for (std::int64_t t = 0; t < T; ++t) acc = fmaf(dh[t * r + j], x(t, k), acc);
  return acc;
}

PARITY_HD float dB(Bf16View dy, const float* h, float s, std::int64_t n, std::int64_t j, std::int64_t T,
                   std::int64_t r) {
  float acc = 0.0f;
  for (std::int64_t t = 0; t < T; ++t) acc = fmaf(dy(t, n), h[t * r + j], acc);
  return s * acc;
}

}  // namespace my_lora
