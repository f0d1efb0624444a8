// philox_normals' AVX-512 kernel: eight draws per step, each the IEEE operations of
// philox_normal (random_fill.cpp, detmath.hpp's log, detmath.cpp's sin and cos of 2 pi t) in
// the same order: Philox's rounds on 64-bit lanes, the exact conversions to (0, 1], then every
// division, square root, multiplication and fma correctly rounded in each lane as in the scalar
// code (fma where it has fma, nothing contracted), the branches taken as lane selections. So each
// lane holds the scalar draw's bits. Only functions marked PARITY_AVX512DQ use AVX-512;
// random_fill.cpp calls them only where the CPU has AVX512F and AVX512DQ.
#include <immintrin.h>

#include <cstdint>

#include <parity/core/detmath.hpp>
#include <parity/core/random_fill_kernels.hpp>

#define PARITY_AVX512DQ __attribute__((target("avx512f,avx512dq")))

// GCC 12's AVX-512 intrinsics pass _mm512_undefined_pd() (a variable initialised from itself) as
// the unused merge source of unmasked operations, which -Wmaybe-uninitialized reports once
// inlined here; no value of this file is read uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parity::detail {
namespace {

struct Words {
  __m512i w0, w1, w2, w3;
};

// philox_words for the eight indices first .. first + 7 (philox.hpp: counter {index low,
// index high, stream, 0}, key {seed low, seed high}).
PARITY_AVX512DQ Words philox8(std::uint64_t seed, std::uint32_t stream, std::uint64_t first) {
  const __m512i lo32 = _mm512_set1_epi64(0xFFFFFFFFll);
  const __m512i index =
      _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(first)), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
  __m512i c0 = _mm512_and_si512(index, lo32), c1 = _mm512_srli_epi64(index, 32);
  __m512i c2 = _mm512_set1_epi64(stream), c3 = _mm512_setzero_si512();
  const __m512i m0 = _mm512_set1_epi64(0xD2511F53ll), m1 = _mm512_set1_epi64(0xCD9E8D57ll);
  auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const __m512i p0 = _mm512_mul_epu32(m0, c0), p1 = _mm512_mul_epu32(m1, c2);
    const __m512i n0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), c1), _mm512_set1_epi64(k0));
    const __m512i n2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), c3), _mm512_set1_epi64(k1));
    c0 = n0;
    c1 = _mm512_and_si512(p1, lo32);
    c2 = n2;
    c3 = _mm512_and_si512(p0, lo32);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {c0, c1, c2, c3};
}

// uniform_open0(hi, lo): ((hi << 32 | lo) >> 11) + 1, at most 2^53 (exact in double), times 2^-53.
PARITY_AVX512DQ __m512d uniform8(__m512i hi, __m512i lo) {
  const __m512i bits53 = _mm512_or_si512(_mm512_slli_epi64(hi, 21), _mm512_srli_epi64(lo, 11));
  return _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_add_epi64(bits53, _mm512_set1_epi64(1))),
                       _mm512_set1_pd(1.0 / 9007199254740992.0));
}

// detmath::log for x in [2^-53, 1] (never 0, subnormal, infinite or NaN: uniform8's range).
PARITY_AVX512DQ __m512d log8(__m512d x) {
  const __m512i u = _mm512_castpd_si512(x);
  __m512d de = _mm512_cvtepi64_pd(_mm512_sub_epi64(_mm512_srli_epi64(u, 52), _mm512_set1_epi64(1023)));
  __m512d m = _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(u, _mm512_set1_epi64(0x000FFFFFFFFFFFFFll)),
                                                  _mm512_set1_epi64(0x3FF0000000000000ll)));
  const __mmask8 big = _mm512_cmp_pd_mask(m, _mm512_set1_pd(1.41421356237309504880), _CMP_GT_OQ);
  m = _mm512_mask_mul_pd(m, big, m, _mm512_set1_pd(0.5));
  de = _mm512_mask_add_pd(de, big, de, _mm512_set1_pd(1.0));  // e + 1, exact: |e| <= 54
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d s = _mm512_div_pd(_mm512_sub_pd(m, one), _mm512_add_pd(m, one));
  const __m512d s2 = _mm512_mul_pd(s, s);
  __m512d p = _mm512_set1_pd(1.0 / 23.0);
  for (int k = 21; k >= 3; k -= 2) p = _mm512_fmadd_pd(p, s2, _mm512_set1_pd(1.0 / k));
  const __m512d log_m = _mm512_mul_pd(_mm512_set1_pd(2.0), _mm512_fmadd_pd(_mm512_mul_pd(s, s2), p, s));
  return _mm512_fmadd_pd(de, _mm512_set1_pd(6.93147180369123816490e-01),
                         _mm512_fmadd_pd(de, _mm512_set1_pd(1.90821492927058770002e-10), log_m));
}

// -v, exactly (the sign bit flipped, as the scalar code's unary minus).
PARITY_AVX512DQ __m512d negate(__m512d v) {
  return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(INT64_MIN)));
}

// One Horner step of sincos_reduced: fma(acc, -r2, k).
PARITY_AVX512DQ __m512d step(__m512d acc, __m512d minus_r2, double k) {
  return _mm512_fmadd_pd(acc, minus_r2, _mm512_set1_pd(k));
}

// The cosine of detmath::sincos_2pi(t) for t in [0, 1).
PARITY_AVX512DQ __m512d cos_2pi8(__m512d t) {
  const __m512d q4 = _mm512_mul_pd(_mm512_set1_pd(4.0), t);
  const __m512d q =
      _mm512_roundscale_pd(_mm512_add_pd(q4, _mm512_set1_pd(0.5)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512d r = _mm512_mul_pd(_mm512_sub_pd(q4, q), _mm512_set1_pd(1.57079632679489661923));
  const __m512d r2 = _mm512_mul_pd(r, r);
  const __m512d mr2 = negate(r2);
  using detmath::detail::kInverseFactorial;
  __m512d ps = _mm512_set1_pd(kInverseFactorial[17]);
  for (int n = 15; n >= 3; n -= 2) ps = step(ps, mr2, kInverseFactorial[n]);
  const __m512d sr = _mm512_fmadd_pd(_mm512_mul_pd(negate(r), r2), ps, r);
  __m512d pc = _mm512_set1_pd(kInverseFactorial[18]);
  for (int n = 16; n >= 2; n -= 2) pc = step(pc, mr2, kInverseFactorial[n]);
  const __m512d cr = _mm512_fmadd_pd(mr2, pc, _mm512_set1_pd(1.0));
  // Quadrant q & 3: 0 cos, 1 -sin, 2 -cos, 3 sin.
  const __m512i quadrant = _mm512_and_si512(_mm512_cvttpd_epi64(q), _mm512_set1_epi64(3));
  const __mmask8 odd = _mm512_test_epi64_mask(quadrant, _mm512_set1_epi64(1));
  const __mmask8 negative =
      _mm512_test_epi64_mask(_mm512_add_epi64(quadrant, _mm512_set1_epi64(1)), _mm512_set1_epi64(2));
  const __m512d c = _mm512_mask_blend_pd(odd, cr, sr);
  return _mm512_mask_mov_pd(c, negative, negate(c));
}

}  // namespace

PARITY_AVX512DQ void philox_normals_avx512(std::uint64_t seed, std::uint32_t stream, std::uint64_t first,
                                           std::int64_t blocks, double* out) {
  for (std::int64_t b = 0; b < blocks; ++b, first += 8, out += 8) {
    const Words w = philox8(seed, stream, first);
    const __m512d u1 = uniform8(w.w0, w.w1);
    const __m512d u2 = _mm512_sub_pd(uniform8(w.w2, w.w3), _mm512_set1_pd(0x1p-53));
    const __m512d radius = _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), log8(u1)));
    _mm512_storeu_pd(out, _mm512_mul_pd(radius, cos_2pi8(u2)));
  }
}

}  // namespace parity::detail
