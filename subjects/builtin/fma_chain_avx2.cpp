// fma_panel_kernel's AVX2 kernel: each half (16 columns) of a panel in tiles of up to 6 rows,
// 12 ymm accumulators; each step broadcasts a(i, p), loads b(p, ...) and issues one
// _mm256_fmadd_ps per accumulator, i.e. fma(a, b, c) rounded once in every lane, p ascending:
// the bits of mac_panel<FmaMac>. Only functions marked PARITY_AVX2 use AVX2 and FMA (the
// target attribute); fma_chain.cpp calls them only where the CPU has both.
#include <immintrin.h>

#include <array>
#include <utility>

#include <parity/subjects/builtin/fma_chain.hpp>
#include <parity/subjects/builtin/fma_chain_kernels.hpp>

#define PARITY_AVX2 __attribute__((target("avx2,fma")))

namespace parity::subjects::builtin {
namespace {

constexpr std::int64_t kMaxRows = 6;
constexpr std::int64_t kHalf = 16;

template <int R>
PARITY_AVX2 void tile(const float* a, std::int64_t lda, const float* half, std::int64_t P, float* c, std::int64_t ldc,
                      const int* mask) {
  const __m256i m0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask));
  const __m256i m1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + 8));
  __m256 lo[R], hi[R];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    lo[r] = _mm256_maskload_ps(c + r * ldc, m0);
    hi[r] = _mm256_maskload_ps(c + r * ldc + 8, m1);
  }
  for (std::int64_t p = 0; p < P; ++p) {
    const __m256 b0 = _mm256_load_ps(half + p * kPanelWidth);
    const __m256 b1 = _mm256_load_ps(half + p * kPanelWidth + 8);
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      const __m256 x = _mm256_broadcast_ss(a + r * lda + p);
      lo[r] = _mm256_fmadd_ps(x, b0, lo[r]);
      hi[r] = _mm256_fmadd_ps(x, b1, hi[r]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    _mm256_maskstore_ps(c + r * ldc, m0, lo[r]);
    _mm256_maskstore_ps(c + r * ldc + 8, m1, hi[r]);
  }
}

template <int... R>
constexpr auto tiles(std::integer_sequence<int, R...>) {
  using Tile = void (*)(const float*, std::int64_t, const float*, std::int64_t, float*, std::int64_t, const int*);
  return std::array<Tile, sizeof...(R)>{&tile<R + 1>...};
}

}  // namespace

PARITY_AVX2 void fma_panel_avx2(std::int64_t M, const float* a, std::int64_t lda, const float* panel, std::int64_t P,
                                float* c, std::int64_t ldc, std::int64_t width) {
  static constexpr auto kTiles = tiles(std::make_integer_sequence<int, kMaxRows>{});
  for (std::int64_t h = 0; h * kHalf < width; ++h) {
    // maskload's lane masks: -1 for the half's columns below width.
    int mask[kHalf];
    for (std::int64_t j = 0; j < kHalf; ++j) mask[j] = h * kHalf + j < width ? -1 : 0;
    for (std::int64_t i = 0, t = 0; i < M; ++t) {
      const std::int64_t rows = tile_rows(M, kMaxRows, t);
      kTiles[rows - 1](a + i * lda, lda, panel + h * kHalf, P, c + i * ldc + h * kHalf, ldc, mask);
      i += rows;
    }
  }
}

}  // namespace parity::subjects::builtin
