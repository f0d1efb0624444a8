// The AVX-512 Dot2 kernels: one 8-wide vector is the eight lanes of dot2_kernels.hpp, each
// lane performing dot2_add's operations in dot2_add's order, so the bits are those of
// dot2_portable.cpp and dot2_avx2.cpp. Four b rows share each load of x (12 of the 32 zmm
// registers hold their accumulators); eight outputs' lanes are merged and finished at once,
// one output per vector lane; step_exact is NtOperands::exact's step. Only the functions
// marked PARITY_AVX512 use AVX-512 (GCC's target attribute), and dot2_kernels.cpp calls them
// only where the CPU has AVX512F.
#include <immintrin.h>

#include <cstdint>
#include <limits>

#include <parity/oracles/dot2_ranges.hpp>

#define PARITY_AVX512 __attribute__((target("avx512f")))

namespace parity::oracles::dot2_detail {
namespace {

struct Lanes8 {
  __m512d s, c, abs;
};

// fl(a + b) and fl(a - b) issued as fused multiply-adds by one: a 1 is exact, so the result
// is the same bits as the addition's. Zen-class cores run additions on two pipes and FMAs on
// two others; step's 9 additions alone would keep the adders busy 4.5 cycles per vector.
PARITY_AVX512 inline __m512d add_on_fma(__m512d a, __m512d b) { return _mm512_fmadd_pd(a, _mm512_set1_pd(1.0), b); }
PARITY_AVX512 inline __m512d sub_on_fma(__m512d a, __m512d b) { return _mm512_fmsub_pd(a, _mm512_set1_pd(1.0), b); }

// dot2_add on eight lanes: TwoProduct, TwoSum, then c += (TwoSum error + product error); three
// of its additions on the FMA pipes.
PARITY_AVX512 inline void step(Lanes8& acc, __m512d x, __m512d y) {
  const __m512d p = _mm512_mul_pd(x, y);
  const __m512d e = _mm512_fmsub_pd(x, y, p);
  const __m512d s = _mm512_add_pd(acc.s, p);
  const __m512d z = _mm512_sub_pd(s, acc.s);
  const __m512d q = _mm512_add_pd(_mm512_sub_pd(acc.s, _mm512_sub_pd(s, z)), sub_on_fma(p, z));
  acc.s = s;
  acc.c = _mm512_add_pd(acc.c, add_on_fma(q, e));
  acc.abs = add_on_fma(acc.abs, _mm512_abs_pd(p));
}

// dot2_add_exact on eight lanes: step without TwoProduct's error term, c += TwoSum's error
// (on the FMA pipes, as abs's addition): 10 operations instead of step's 12. Forming s by
// fma(x, y, s) instead (the same bits, x y being exact) measured slower: it puts the FMA's
// longer latency on the running sum's dependency chain.
PARITY_AVX512 inline void step_exact(Lanes8& acc, __m512d x, __m512d y) {
  const __m512d p = _mm512_mul_pd(x, y);
  const __m512d s = _mm512_add_pd(acc.s, p);
  const __m512d z = _mm512_sub_pd(s, acc.s);
  const __m512d q = _mm512_add_pd(_mm512_sub_pd(acc.s, _mm512_sub_pd(s, z)), sub_on_fma(p, z));
  acc.s = s;
  acc.c = add_on_fma(acc.c, q);
  acc.abs = add_on_fma(acc.abs, _mm512_abs_pd(p));
}

PARITY_AVX512 inline void store(const Lanes8& acc, double* s, double* c, double* abs) {
  _mm512_storeu_pd(s, acc.s);
  _mm512_storeu_pd(c, acc.c);
  _mm512_storeu_pd(abs, acc.abs);
}

PARITY_AVX512 inline Lanes8 load(const double* s, const double* c, const double* abs) {
  return {_mm512_loadu_pd(s), _mm512_loadu_pd(c), _mm512_loadu_pd(abs)};
}

// segments_avx512 (exact_segments_avx512 when Exact) for exactly R rows.
template <std::size_t R, bool Exact>
PARITY_AVX512 void block(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t n,
                         bool fresh) {
  Lanes8 acc[R];
  const __m512d zero = _mm512_setzero_pd();
#pragma GCC unroll 4
  for (std::size_t r = 0; r < R; ++r)
    acc[r] = fresh ? Lanes8{zero, zero, zero} : load(s + r * kLanes, c + r * kLanes, abs + r * kLanes);
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes) {
    const __m512d xv = _mm512_loadu_pd(x + k);
    if constexpr (Exact) {
#pragma GCC unroll 4
      for (std::size_t r = 0; r < R; ++r) step_exact(acc[r], xv, _mm512_loadu_pd(y[r] + k));
    } else {
#pragma GCC unroll 4
      for (std::size_t r = 0; r < R; ++r) step(acc[r], xv, _mm512_loadu_pd(y[r] + k));
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    store(acc[r], s + r * kLanes, c + r * kLanes, abs + r * kLanes);
    for (std::size_t k = body; k < n; ++k) {
      const std::size_t l = r * kLanes + k - body;
      if constexpr (Exact) lane_add<dot2_add_exact>(s[l], c[l], abs[l], x[k], y[r][k]);
      else lane_add(s[l], c[l], abs[l], x[k], y[r][k]);
    }
  }
}

template <bool Exact>
PARITY_AVX512 void rows_of(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                           std::size_t n, bool fresh) {
  if (rows == kBlockRows) return block<kBlockRows, Exact>(s, c, abs, x, y, n, fresh);
  for (std::size_t r = 0; r < rows; ++r)
    block<1, Exact>(s + r * kLanes, c + r * kLanes, abs + r * kLanes, x, y + r, n, fresh);
}

// Output columns [k, k + 8) of output row i, continued over every m.
PARITY_AVX512 void tn_block(const TnOperands& op, std::size_t i, std::size_t k, Dot2State* out) {
  double s[kLanes], c[kLanes], abs[kLanes];
  unpack_states(out, s, c, abs);
  Lanes8 acc = load(s, c, abs);
  const std::size_t rows = op.a_rows.size();
  for (std::size_t m = 0; m < rows; ++m) step(acc, _mm512_set1_pd(op.a_rows[m][i]), _mm512_loadu_pd(op.b_rows[m] + k));
  store(acc, s, c, abs);
  pack_states(out, s, c, abs, rows);
}

// Elements of the pair (a, b) picked by `idx` (0-7: a's, 8-15: b's).
PARITY_AVX512 inline __m512d pick(__m512d a, __m512d b, long long i0, long long i1, long long i2, long long i3) {
  return _mm512_permutex2var_pd(a, _mm512_setr_epi64(i0, i0 + 8, i1, i1 + 8, i2, i2 + 8, i3, i3 + 8), b);
}
PARITY_AVX512 inline __m512d halves(__m512d a, __m512d b, long long first) {
  return _mm512_permutex2var_pd(
      a, _mm512_setr_epi64(first, first + 1, first + 4, first + 5, first + 8, first + 9, first + 12, first + 13), b);
}

// The kMergeRows x kLanes block at v (row r at v + r kLanes) transposed: col[l] holds lane l
// of every row, row r in vector lane r.
PARITY_AVX512 inline void transpose(const double* v, __m512d* col) {
  __m512d t[kMergeRows];
  for (std::size_t r = 0; r < kMergeRows; r += 2) {
    const __m512d a = _mm512_loadu_pd(v + r * kLanes), b = _mm512_loadu_pd(v + (r + 1) * kLanes);
    t[r] = pick(a, b, 0, 2, 4, 6);      // a0 b0 a2 b2 a4 b4 a6 b6
    t[r + 1] = pick(a, b, 1, 3, 5, 7);  // a1 b1 a3 b3 a5 b5 a7 b7
  }
  for (std::size_t odd = 0; odd < 2; ++odd) {
    // Rows 0-3's lanes (0, 4) and (2, 6), plus `odd`; then rows 4-7's.
    const __m512d u0 = halves(t[odd], t[2 + odd], 0), u1 = halves(t[odd], t[2 + odd], 2);
    const __m512d u4 = halves(t[4 + odd], t[6 + odd], 0), u5 = halves(t[4 + odd], t[6 + odd], 2);
    col[odd] = halves(u0, u4, 0);
    col[4 + odd] = halves(u0, u4, 2);
    col[2 + odd] = halves(u1, u5, 0);
    col[6 + odd] = halves(u1, u5, 2);
  }
}

PARITY_AVX512 inline __mmask8 finite(__m512d v) {
  return _mm512_cmp_pd_mask(_mm512_abs_pd(v), _mm512_set1_pd(std::numeric_limits<double>::infinity()), _CMP_LT_OQ);
}

}  // namespace

// dot2_merge in lane order and dot2_finish for eight outputs at once, one per vector lane:
// the same operations in the same order as finish_portable, so the same bits.
PARITY_AVX512 void finish_avx512(const double* s, const double* c, const double* abs, std::size_t terms, double* hi_out,
                                 double* lo_out, double* err_dd_out, double* abs_out) {
  __m512d ls[kLanes], lc[kLanes], la[kLanes];
  transpose(s, ls);
  transpose(c, lc);
  transpose(abs, la);
  __m512d st_s = ls[0], st_c = lc[0], st_abs = la[0];
  for (std::size_t l = 1; l < kLanes; ++l) {
    const __m512d b = ls[l];
    const __m512d sum = _mm512_add_pd(st_s, b);
    const __m512d z = _mm512_sub_pd(sum, st_s);
    const __m512d e = _mm512_add_pd(_mm512_sub_pd(st_s, _mm512_sub_pd(sum, z)), _mm512_sub_pd(b, z));
    st_s = sum;
    st_c = _mm512_add_pd(st_c, _mm512_add_pd(e, lc[l]));
    st_abs = _mm512_add_pd(st_abs, la[l]);
  }
  const __m512d hi = _mm512_add_pd(st_s, st_c);
  const __m512d z = _mm512_sub_pd(hi, st_s);
  __m512d lo = _mm512_add_pd(_mm512_sub_pd(st_s, _mm512_sub_pd(hi, z)), _mm512_sub_pd(st_c, z));
  const double inf = std::numeric_limits<double>::infinity();
  const auto t = static_cast<std::int64_t>(terms);
  const double mu = static_cast<double>(2 * (t + (kLanes - 1) + 1)) * 0x1p-53;
  __m512d err = _mm512_set1_pd(inf);
  if (mu <= 0.0625) {
    const __m512d bound =
        _mm512_add_pd(_mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(mu * mu), st_abs), _mm512_set1_pd(1 + 4 * mu)),
                      _mm512_set1_pd((static_cast<double>(t) + 4) * 0x1p-1074));
    err = _mm512_mul_pd(bound, _mm512_set1_pd(1 + 0x1p-40));
  }
  const __mmask8 ok = finite(st_s) & finite(st_c) & finite(st_abs) & finite(hi);
  lo = _mm512_maskz_mov_pd(ok, lo);
  err = _mm512_mask_mov_pd(_mm512_set1_pd(inf), ok, err);
  _mm512_storeu_pd(hi_out, _mm512_mask_mov_pd(st_s, finite(st_s), hi));  // dot2_finish: s where not finite
  _mm512_storeu_pd(lo_out, lo);
  _mm512_storeu_pd(err_dd_out, err);
  _mm512_storeu_pd(abs_out, st_abs);
}

PARITY_AVX512 void lane_sums_avx512(const double* v, double* sums) {
  __m512d lanes[kLanes];
  transpose(v, lanes);
  __m512d sum = lanes[0];
  for (std::size_t l = 1; l < kLanes; ++l) sum = _mm512_add_pd(sum, lanes[l]);
  _mm512_storeu_pd(sums, sum);
}

PARITY_AVX512 void segments_avx512(double* s, double* c, double* abs, const double* x, const double* const* y,
                                   std::size_t rows, std::size_t n, bool fresh) {
  rows_of<false>(s, c, abs, x, y, rows, n, fresh);
}

PARITY_AVX512 void exact_segments_avx512(double* s, double* c, double* abs, const double* x, const double* const* y,
                                         std::size_t rows, std::size_t n, bool fresh) {
  rows_of<true>(s, c, abs, x, y, rows, n, fresh);
}

// is_float32 eight at a time: v survives the round trip through float (round to nearest; a
// value beyond float's range becomes infinite), or is a NaN.
PARITY_AVX512 bool all_float32_avx512(const double* v, std::size_t n) {
  const std::size_t body = n - n % kLanes;
  __mmask8 ok = 0xff;
  for (std::size_t k = 0; k < body; k += kLanes) {
    const __m512d x = _mm512_loadu_pd(v + k);
    const __m512d back = _mm512_maskz_cvtps_pd(0xff, _mm512_maskz_cvtpd_ps(0xff, x));
    ok &= _mm512_cmp_pd_mask(back, x, _CMP_EQ_OQ) | _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q);
  }
  return ok == 0xff && all_float32_portable(v + body, n - body);
}

// weighted_row_sums_portable with one vector lane per q: the same products and additions.
PARITY_AVX512 void weighted_row_sums_avx512(const double* m, std::size_t ldm, std::size_t r, const double* w_a,
                                            const double* w_b, double* sum_a, double* sum_b) {
  static_assert(kMergeRows == kLanes);
  __m512d a = _mm512_setzero_pd(), b = _mm512_setzero_pd();
  for (std::size_t j = 0; j < r; ++j) {
    const __m512d row = _mm512_loadu_pd(m + j * ldm);
    a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_set1_pd(w_a[j]), row));
    b = _mm512_add_pd(b, _mm512_mul_pd(_mm512_set1_pd(w_b[j]), row));
  }
  _mm512_storeu_pd(sum_a, a);
  _mm512_storeu_pd(sum_b, b);
}

PARITY_AVX512 void tn_avx512(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  const std::size_t body = k0 + (k1 - k0) - (k1 - k0) % kLanes;
  for (std::size_t k = k0; k < body; k += kLanes)
    for (std::size_t i = 0; i < op.a_cols; ++i) tn_block(op, i, k, out + i * op.b_cols + k);
  tn_portable(op, out, body, k1);
}

}  // namespace parity::oracles::dot2_detail
