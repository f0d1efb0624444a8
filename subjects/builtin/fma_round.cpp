#include <parity/subjects/builtin/fma_round.hpp>

#include <algorithm>
#include <cmath>

#include <parity/core/bf16.hpp>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

// GCC 12's AVX-512 intrinsics pass _mm512_undefined_ps() (a variable initialised from itself) as
// the unused merge source of unmasked operations, which -Wmaybe-uninitialized reports once
// inlined here; no value of this file is read uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parity::subjects::builtin {
namespace {

// The element-by-element definition; also every kernel's tail.
void round_portable(std::int64_t n, float scale, const float* a, const float* b, std::uint16_t* out) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = bf16_from_float_rne(std::fma(scale, a[i], b[i]));
}

#if defined(__x86_64__) && defined(__GNUC__)
// The vector kernels round the leading multiple of their width and return how many elements
// that is; the caller rounds the rest element by element (after the kernel's return, where the
// compiler clears the upper vector state: a tail call from inside would leave it dirty for the
// legacy-SSE code that follows, slowing every instruction of it).

// bf16_from_float_rne on 16 lanes: (u + 0x7FFF + ((u >> 16) & 1)) >> 16, a NaN (|u| past the
// infinity's bits) to the canonical NaN; vpmovdw keeps each lane's low 16 bits.
[[gnu::target("avx512f")]] std::int64_t round_avx512(std::int64_t n, float scale, const float* a, const float* b,
                                                     std::uint16_t* out) {
  const __m512 s = _mm512_set1_ps(scale);
  const __m512i one = _mm512_set1_epi32(1), half = _mm512_set1_epi32(0x7FFF);
  const __m512i magnitude = _mm512_set1_epi32(0x7FFFFFFF), inf = _mm512_set1_epi32(0x7F800000);
  const __m512i nan = _mm512_set1_epi32(kBf16CanonicalNaN);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i u = _mm512_castps_si512(_mm512_fmadd_ps(s, _mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, half), odd), 16);
    r = _mm512_mask_mov_epi32(r, _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, magnitude), inf), nan);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi32_epi16(r));
  }
  return i;
}

// The same on 8 lanes (the magnitudes compare as signed: their top bit is clear); packus
// narrows within 128-bit halves, the permute joins them.
[[gnu::target("avx2,fma")]] std::int64_t round_avx2(std::int64_t n, float scale, const float* a, const float* b,
                                                    std::uint16_t* out) {
  const __m256 s = _mm256_set1_ps(scale);
  const __m256i one = _mm256_set1_epi32(1), half = _mm256_set1_epi32(0x7FFF);
  const __m256i magnitude = _mm256_set1_epi32(0x7FFFFFFF), inf = _mm256_set1_epi32(0x7F800000);
  const __m256i nan = _mm256_set1_epi32(kBf16CanonicalNaN);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i u = _mm256_castps_si256(_mm256_fmadd_ps(s, _mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, half), odd), 16);
    r = _mm256_blendv_epi8(r, nan, _mm256_cmpgt_epi32(_mm256_and_si256(u, magnitude), inf));
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm256_castsi256_si128(packed));
  }
  return i;
}
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace

void fma_round_bf16(Isa isa, std::int64_t rows, std::int64_t cols, std::int64_t ld_out, std::int64_t ld, float scale,
                    const float* a, const float* b, std::uint16_t* out) {
  const Isa use = std::min(isa, best_isa());
  for (std::int64_t t = 0; t < rows; ++t) {
    const float *at = a + t * ld, *bt = b + t * ld;
    std::uint16_t* to = out + t * ld_out;
    std::int64_t done = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (use == Isa::avx512) done = round_avx512(cols, scale, at, bt, to);
    else if (use == Isa::avx2) done = round_avx2(cols, scale, at, bt, to);
#endif
    round_portable(cols - done, scale, at + done, bt + done, to + done);
  }
}

}  // namespace parity::subjects::builtin
