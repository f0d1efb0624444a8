// The AVX-512 Dot2 kernels: one 8-wide vector is the eight lanes of dot2_kernels.hpp, each
// lane performing dot2_add's operations in dot2_add's order, so the bits are those of
// dot2_portable.cpp and dot2_avx2.cpp. Four b rows share each load of x (12 of the 32 zmm
// registers hold their accumulators). Only the functions marked PARITY_AVX512 use AVX-512
// (GCC's target attribute), and dot2_kernels.cpp calls them only where the CPU has AVX512F.
#include <immintrin.h>

#include "oracles/dot2_ranges.hpp"

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

PARITY_AVX512 inline void store(const Lanes8& acc, double* s, double* c, double* abs) {
  _mm512_storeu_pd(s, acc.s);
  _mm512_storeu_pd(c, acc.c);
  _mm512_storeu_pd(abs, acc.abs);
}

PARITY_AVX512 inline Lanes8 load(const double* s, const double* c, const double* abs) {
  return {_mm512_loadu_pd(s), _mm512_loadu_pd(c), _mm512_loadu_pd(abs)};
}

// segments_avx512 for exactly R rows.
template <std::size_t R>
PARITY_AVX512 void block(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t n) {
  Lanes8 acc[R];
#pragma GCC unroll 4
  for (std::size_t r = 0; r < R; ++r) acc[r] = load(s + r * kLanes, c + r * kLanes, abs + r * kLanes);
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes) {
    const __m512d xv = _mm512_loadu_pd(x + k);
#pragma GCC unroll 4
    for (std::size_t r = 0; r < R; ++r) step(acc[r], xv, _mm512_loadu_pd(y[r] + k));
  }
  for (std::size_t r = 0; r < R; ++r) {
    store(acc[r], s + r * kLanes, c + r * kLanes, abs + r * kLanes);
    for (std::size_t k = body; k < n; ++k) {
      const std::size_t l = r * kLanes + k - body;
      lane_add(s[l], c[l], abs[l], x[k], y[r][k]);
    }
  }
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

}  // namespace

PARITY_AVX512 void segments_avx512(double* s, double* c, double* abs, const double* x, const double* const* y,
                                   std::size_t rows, std::size_t n) {
  if (rows == kBlockRows) return block<kBlockRows>(s, c, abs, x, y, n);
  for (std::size_t r = 0; r < rows; ++r) block<1>(s + r * kLanes, c + r * kLanes, abs + r * kLanes, x, y + r, n);
}

PARITY_AVX512 void tn_avx512(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  const std::size_t body = k0 + (k1 - k0) - (k1 - k0) % kLanes;
  for (std::size_t k = k0; k < body; k += kLanes)
    for (std::size_t i = 0; i < op.a_cols; ++i) tn_block(op, i, k, out + i * op.b_cols + k);
  tn_portable(op, out, body, k1);
}

}  // namespace parity::oracles::dot2_detail
