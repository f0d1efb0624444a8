// fma_panel_kernel's AVX-512 kernel: a tile of up to 12 rows x 32 columns held in 24 zmm
// accumulators; each step broadcasts a(i, p), loads b(p, j0..j0+31) and issues one
// _mm512_fmadd_ps per accumulator, i.e. fma(a, b, c) rounded once in every lane, p ascending:
// the bits of mac_panel<FmaMac>. And the panel packing of a bf16 operand whose reduction
// index is contiguous (W^T of the forward), by 16 x 16 transposes: data movement only.
// Only functions marked PARITY_AVX512 use AVX-512 (GCC's and Clang's target attribute);
// fma_chain.cpp calls them only where the CPU has AVX512F.
#include <immintrin.h>

#include <array>
#include <utility>

#include <parity/core/bf16.hpp>
#include <parity/subjects/builtin/fma_chain.hpp>
#include <parity/subjects/builtin/fma_chain_kernels.hpp>

#define PARITY_AVX512 __attribute__((target("avx512f")))

// GCC 12's AVX-512 intrinsics pass _mm512_undefined_ps() (a variable initialised from itself) as
// the unused merge source of unmasked operations, which -Wmaybe-uninitialized reports once
// inlined here; no value of this file is read uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parity::subjects::builtin {
namespace {

constexpr std::int64_t kMaxRows = 12;

template <int R>
PARITY_AVX512 void tile(const float* a, std::int64_t lda, const float* panel, std::int64_t P, float* c,
                        std::int64_t ldc, __mmask16 m0, __mmask16 m1) {
  __m512 lo[R], hi[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    lo[r] = _mm512_maskz_loadu_ps(m0, c + r * ldc);
    hi[r] = _mm512_maskz_loadu_ps(m1, c + r * ldc + 16);
  }
  for (std::int64_t p = 0; p < P; ++p) {
    const __m512 b0 = _mm512_load_ps(panel + p * kPanelWidth);
    const __m512 b1 = _mm512_load_ps(panel + p * kPanelWidth + 16);
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_set1_ps(a[r * lda + p]);
      lo[r] = _mm512_fmadd_ps(x, b0, lo[r]);
      hi[r] = _mm512_fmadd_ps(x, b1, hi[r]);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    _mm512_mask_storeu_ps(c + r * ldc, m0, lo[r]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, m1, hi[r]);
  }
}

template <int... R>
constexpr auto tiles(std::integer_sequence<int, R...>) {
  using Tile =
      void (*)(const float*, std::int64_t, const float*, std::int64_t, float*, std::int64_t, __mmask16, __mmask16);
  return std::array<Tile, sizeof...(R)>{&tile<R + 1>...};
}

// 16 bf16 values at p, as float32 (exact: the bits shifted up).
PARITY_AVX512 inline __m512 load_bf16(const std::uint16_t* p) {
  const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

// r[a][c] -> r[c][a]: unpack pairs of rows, then 4 x 4 blocks within 128-bit lanes, then the
// lanes themselves in two steps.
PARITY_AVX512 inline void transpose16(__m512 (&r)[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // u[4i + q], lane L: column 4L + q of rows 4i..4i+3.
  for (int i = 0; i < 4; ++i) {
    u[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    u[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    u[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    u[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int q = 0; q < 4; ++q) {
    const __m512 v0 = _mm512_shuffle_f32x4(u[q], u[4 + q], 0x44), v1 = _mm512_shuffle_f32x4(u[q], u[4 + q], 0xEE);
    const __m512 v2 = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0x44),
                 v3 = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0xEE);
    r[q] = _mm512_shuffle_f32x4(v0, v2, 0x88);
    r[4 + q] = _mm512_shuffle_f32x4(v0, v2, 0xDD);
    r[8 + q] = _mm512_shuffle_f32x4(v1, v3, 0x88);
    r[12 + q] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
  }
}

}  // namespace

PARITY_AVX512 void pack_bf16_rows_avx512(const std::uint16_t* src, std::int64_t s_col, std::int64_t P,
                                         std::int64_t width, float* panel) {
  const std::int64_t full = P / 16 * 16;
  for (std::int64_t p0 = 0; p0 < full; p0 += 16)
    for (std::int64_t g = 0; g < kPanelWidth / 16; ++g) {
      __m512 r[16];
      for (std::int64_t a = 0; a < 16; ++a)
        r[a] = 16 * g + a < width ? load_bf16(src + (16 * g + a) * s_col + p0) : _mm512_setzero_ps();
      transpose16(r);
      for (std::int64_t c = 0; c < 16; ++c) _mm512_store_ps(panel + (p0 + c) * kPanelWidth + 16 * g, r[c]);
    }
  for (std::int64_t p = full; p < P; ++p)
    for (std::int64_t j = 0; j < kPanelWidth; ++j)
      panel[p * kPanelWidth + j] = j < width ? bf16_to_float(src[j * s_col + p]) : 0.0f;
}

PARITY_AVX512 void fma_panel_avx512(std::int64_t M, const float* a, std::int64_t lda, const float* panel,
                                    std::int64_t P, float* c, std::int64_t ldc, std::int64_t width) {
  static constexpr auto kTiles = tiles(std::make_integer_sequence<int, kMaxRows>{});
  const auto mask = [](std::int64_t n) {
    return static_cast<__mmask16>(n >= 16 ? 0xFFFF : n <= 0 ? 0 : (1u << n) - 1);
  };
  const __mmask16 m0 = mask(width), m1 = mask(width - 16);
  for (std::int64_t i = 0, t = 0; i < M; ++t) {
    const std::int64_t rows = tile_rows(M, kMaxRows, t);
    kTiles[rows - 1](a + i * lda, lda, panel, P, c + i * ldc, ldc, m0, m1);
    i += rows;
  }
}

}  // namespace parity::subjects::builtin
