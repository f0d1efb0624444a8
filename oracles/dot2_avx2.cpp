// The AVX2 + FMA Dot2 kernels: two 4-wide vectors make the eight lanes of dot2_kernels.hpp,
// each lane performing dot2_add's operations in dot2_add's order, so the bits are those of
// dot2_portable.cpp. Two b rows share each load of x (the 16 ymm registers hold their 12
// accumulators); step_exact is NtOperands::exact's step. Only the functions marked
// PARITY_AVX2 use AVX2 (GCC's target attribute, not a TU-wide -mavx2), so no inline function
// shared with other TUs is compiled for AVX2 here; dot2_kernels.cpp calls them only where
// the CPU has AVX2 and FMA.
#include <immintrin.h>

#include <parity/oracles/dot2_ranges.hpp>

#define PARITY_AVX2 __attribute__((target("avx2,fma")))

namespace parity::oracles::dot2_detail {
namespace {

constexpr std::size_t kRows = 2;  // b rows per x load

struct Lanes4 {
  __m256d s, c, abs;
};

// dot2_add on four lanes: TwoProduct, TwoSum, then c += (TwoSum error + product error).
PARITY_AVX2 inline void step(Lanes4& acc, __m256d x, __m256d y) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d p = _mm256_mul_pd(x, y);
  const __m256d e = _mm256_fmsub_pd(x, y, p);
  const __m256d s = _mm256_add_pd(acc.s, p);
  const __m256d z = _mm256_sub_pd(s, acc.s);
  const __m256d q = _mm256_add_pd(_mm256_sub_pd(acc.s, _mm256_sub_pd(s, z)), _mm256_sub_pd(p, z));
  acc.s = s;
  acc.c = _mm256_add_pd(acc.c, _mm256_add_pd(q, e));
  acc.abs = _mm256_add_pd(acc.abs, _mm256_andnot_pd(sign, p));
}

// dot2_add_exact on four lanes: step without TwoProduct's error term, the operations of
// dot2_avx512.cpp's step_exact, so the same bits.
PARITY_AVX2 inline void step_exact(Lanes4& acc, __m256d x, __m256d y) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d p = _mm256_mul_pd(x, y);
  const __m256d s = _mm256_add_pd(acc.s, p);
  const __m256d z = _mm256_sub_pd(s, acc.s);
  const __m256d q = _mm256_add_pd(_mm256_sub_pd(acc.s, _mm256_sub_pd(s, z)), _mm256_sub_pd(p, z));
  acc.s = s;
  acc.c = _mm256_add_pd(acc.c, q);
  acc.abs = _mm256_add_pd(acc.abs, _mm256_andnot_pd(sign, p));
}

PARITY_AVX2 inline void store(const Lanes4& acc, double* s, double* c, double* abs) {
  _mm256_storeu_pd(s, acc.s);
  _mm256_storeu_pd(c, acc.c);
  _mm256_storeu_pd(abs, acc.abs);
}

PARITY_AVX2 inline Lanes4 load(const double* s, const double* c, const double* abs) {
  return {_mm256_loadu_pd(s), _mm256_loadu_pd(c), _mm256_loadu_pd(abs)};
}

// segments_avx2 (exact_segments_avx2 when Exact) for exactly R rows.
template <std::size_t R, bool Exact>
PARITY_AVX2 void block(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t n,
                       bool fresh) {
  Lanes4 lo[R], hi[R];
  const __m256d zero = _mm256_setzero_pd();
#pragma GCC unroll 4
  for (std::size_t r = 0; r < R; ++r) {
    lo[r] = fresh ? Lanes4{zero, zero, zero} : load(s + r * kLanes, c + r * kLanes, abs + r * kLanes);
    hi[r] = fresh ? Lanes4{zero, zero, zero} : load(s + r * kLanes + 4, c + r * kLanes + 4, abs + r * kLanes + 4);
  }
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes) {
    const __m256d xlo = _mm256_loadu_pd(x + k), xhi = _mm256_loadu_pd(x + k + 4);
#pragma GCC unroll 4
    for (std::size_t r = 0; r < R; ++r) {
      if constexpr (Exact) {
        step_exact(lo[r], xlo, _mm256_loadu_pd(y[r] + k));
        step_exact(hi[r], xhi, _mm256_loadu_pd(y[r] + k + 4));
      } else {
        step(lo[r], xlo, _mm256_loadu_pd(y[r] + k));
        step(hi[r], xhi, _mm256_loadu_pd(y[r] + k + 4));
      }
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    store(lo[r], s + r * kLanes, c + r * kLanes, abs + r * kLanes);
    store(hi[r], s + r * kLanes + 4, c + r * kLanes + 4, abs + r * kLanes + 4);
    for (std::size_t k = body; k < n; ++k) {
      const std::size_t l = r * kLanes + k - body;
      if constexpr (Exact) lane_add<dot2_add_exact>(s[l], c[l], abs[l], x[k], y[r][k]);
      else lane_add(s[l], c[l], abs[l], x[k], y[r][k]);
    }
  }
}

template <bool Exact>
PARITY_AVX2 void rows_of(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                         std::size_t n, bool fresh) {
  std::size_t r = 0;
  for (; r + kRows <= rows; r += kRows)
    block<kRows, Exact>(s + r * kLanes, c + r * kLanes, abs + r * kLanes, x, y + r, n, fresh);
  for (; r < rows; ++r) block<1, Exact>(s + r * kLanes, c + r * kLanes, abs + r * kLanes, x, y + r, n, fresh);
}

// Output columns [k, k + 8) of output row i, continued over every m.
PARITY_AVX2 void tn_block(const TnOperands& op, std::size_t i, std::size_t k, Dot2State* out) {
  double s[kLanes], c[kLanes], abs[kLanes];
  unpack_states(out, s, c, abs);
  Lanes4 lo = load(s, c, abs), hi = load(s + 4, c + 4, abs + 4);
  const std::size_t rows = op.a_rows.size();
  for (std::size_t m = 0; m < rows; ++m) {
    const __m256d a = _mm256_set1_pd(op.a_rows[m][i]);
    step(lo, a, _mm256_loadu_pd(op.b_rows[m] + k));
    step(hi, a, _mm256_loadu_pd(op.b_rows[m] + k + 4));
  }
  store(lo, s, c, abs);
  store(hi, s + 4, c + 4, abs + 4);
  pack_states(out, s, c, abs, rows);
}

}  // namespace

PARITY_AVX2 void segments_avx2(double* s, double* c, double* abs, const double* x, const double* const* y,
                               std::size_t rows, std::size_t n, bool fresh) {
  rows_of<false>(s, c, abs, x, y, rows, n, fresh);
}

PARITY_AVX2 void exact_segments_avx2(double* s, double* c, double* abs, const double* x, const double* const* y,
                                     std::size_t rows, std::size_t n, bool fresh) {
  rows_of<true>(s, c, abs, x, y, rows, n, fresh);
}

PARITY_AVX2 void tn_avx2(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  const std::size_t body = k0 + (k1 - k0) - (k1 - k0) % kLanes;
  for (std::size_t k = k0; k < body; k += kLanes)
    for (std::size_t i = 0; i < op.a_cols; ++i) tn_block(op, i, k, out + i * op.b_cols + k);
  tn_portable(op, out, body, k1);
}

}  // namespace parity::oracles::dot2_detail
