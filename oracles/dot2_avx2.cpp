// The AVX2 + FMA Dot2 kernels: two 4-wide vectors make the eight lanes of dot2_kernels.hpp,
// each lane performing dot2_add's operations in dot2_add's order, so the bits are those of
// dot2_portable.cpp. Only the functions marked kAvx2 use AVX2 (GCC's target attribute, not a
// TU-wide -mavx2), so no inline function shared with other TUs is compiled for AVX2 here;
// dot2_kernels.cpp calls them only where the CPU has AVX2 and FMA.
#include <immintrin.h>

#include <cmath>

#include "oracles/dot2_ranges.hpp"

#define PARITY_AVX2 __attribute__((target("avx2,fma")))

namespace parity::oracles::dot2_detail {
namespace {

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

// dot2_add on one lane, for the tails.
PARITY_AVX2 inline void step1(double& s, double& c, double& abs, double x, double y) {
  const double p = x * y;
  const double e = std::fma(x, y, -p);
  const double t = s + p;
  const double z = t - s;
  const double q = (s - (t - z)) + (p - z);
  s = t;
  c = c + (q + e);
  abs = abs + std::fabs(p);
}

PARITY_AVX2 inline void store(const Lanes4& acc, double* s, double* c, double* abs) {
  _mm256_storeu_pd(s, acc.s);
  _mm256_storeu_pd(c, acc.c);
  _mm256_storeu_pd(abs, acc.abs);
}

PARITY_AVX2 inline Lanes4 load(const double* s, const double* c, const double* abs) {
  return {_mm256_loadu_pd(s), _mm256_loadu_pd(c), _mm256_loadu_pd(abs)};
}

// Output columns [k, k + 8) of output row i, continued over every m.
PARITY_AVX2 void tn_block(const TnOperands& op, std::size_t i, std::size_t k, Dot2State* out) {
  double s[kLanes], c[kLanes], abs[kLanes];
  for (std::size_t l = 0; l < kLanes; ++l) {
    s[l] = out[l].s;
    c[l] = out[l].c;
    abs[l] = out[l].abs;
  }
  Lanes4 lo = load(s, c, abs), hi = load(s + 4, c + 4, abs + 4);
  const std::size_t rows = op.a_rows.size();
  for (std::size_t m = 0; m < rows; ++m) {
    const __m256d a = _mm256_set1_pd(op.a_rows[m][i]);
    step(lo, a, _mm256_loadu_pd(op.b_rows[m] + k));
    step(hi, a, _mm256_loadu_pd(op.b_rows[m] + k + 4));
  }
  store(lo, s, c, abs);
  store(hi, s + 4, c + 4, abs + 4);
  for (std::size_t l = 0; l < kLanes; ++l) out[l] = {s[l], c[l], abs[l], out[l].terms + static_cast<std::int64_t>(rows), out[l].merges};
}

// One output element, for the columns left over after the 8-wide blocks.
PARITY_AVX2 void tn_single(const TnOperands& op, std::size_t i, std::size_t k, Dot2State& st) {
  const std::size_t rows = op.a_rows.size();
  for (std::size_t m = 0; m < rows; ++m) step1(st.s, st.c, st.abs, op.a_rows[m][i], op.b_rows[m][k]);
  st.terms += static_cast<std::int64_t>(rows);
}

}  // namespace

PARITY_AVX2 void segment_avx2(double* s, double* c, double* abs, const double* x, const double* y, std::size_t n) {
  Lanes4 lo = load(s, c, abs), hi = load(s + 4, c + 4, abs + 4);
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes) {
    step(lo, _mm256_loadu_pd(x + k), _mm256_loadu_pd(y + k));
    step(hi, _mm256_loadu_pd(x + k + 4), _mm256_loadu_pd(y + k + 4));
  }
  store(lo, s, c, abs);
  store(hi, s + 4, c + 4, abs + 4);
  for (std::size_t k = body; k < n; ++k) step1(s[k - body], c[k - body], abs[k - body], x[k], y[k]);
}

PARITY_AVX2 void tn_avx2(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  const std::size_t body = k0 + (k1 - k0) - (k1 - k0) % kLanes;
  for (std::size_t k = k0; k < body; k += kLanes)
    for (std::size_t i = 0; i < op.a_cols; ++i) tn_block(op, i, k, out + i * op.b_cols + k);
  for (std::size_t i = 0; i < op.a_cols; ++i)
    for (std::size_t k = body; k < k1; ++k) tn_single(op, i, k, out[i * op.b_cols + k]);
}

}  // namespace parity::oracles::dot2_detail
