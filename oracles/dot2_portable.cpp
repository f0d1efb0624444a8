// The portable Dot2 kernels: plain scalar code in exactly the lane structure of
// dot2_avx2.cpp and dot2_avx512.cpp, so all give the same bits.
#include <parity/oracles/dot2_ranges.hpp>

namespace parity::oracles::dot2_detail {
namespace {

// The eight lanes (s, c, abs) + r kLanes of each r < rows set to zero.
void clear_lanes(double* s, double* c, double* abs, std::size_t rows) {
  for (std::size_t l = 0; l < rows * kLanes; ++l) s[l] = c[l] = abs[l] = 0;
}

}  // namespace

void finish_portable(const double* s, const double* c, const double* abs, std::size_t terms, double* hi_out,
                     double* lo_out, double* err_dd_out, double* abs_out) {
  for (std::size_t r = 0; r < kMergeRows; ++r) {
    const std::size_t o = r * kLanes;
    Dot2State st{s[o], c[o], abs[o], 0, 0};
    for (std::size_t l = 1; l < kLanes; ++l) dot2_merge(st, Dot2State{s[o + l], c[o + l], abs[o + l], 0, 0});
    st.terms = static_cast<std::int64_t>(terms);
    const Dot2Result res = dot2_finish(st);
    hi_out[r] = res.hi;
    lo_out[r] = res.lo;
    err_dd_out[r] = res.err_dd;
    abs_out[r] = res.abs;
  }
}

void lane_sums_portable(const double* v, double* sums) {
  for (std::size_t r = 0; r < kMergeRows; ++r) {
    double sum = v[r * kLanes];
    for (std::size_t l = 1; l < kLanes; ++l) sum = sum + v[r * kLanes + l];
    sums[r] = sum;
  }
}

void segments_portable(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                       std::size_t n, bool fresh) {
  if (fresh) clear_lanes(s, c, abs, rows);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t l = r * kLanes + k % kLanes;
      lane_add(s[l], c[l], abs[l], x[k], y[r][k]);
    }
}

void exact_segments_portable(double* s, double* c, double* abs, const double* x, const double* const* y,
                             std::size_t rows, std::size_t n, bool fresh) {
  if (fresh) clear_lanes(s, c, abs, rows);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t l = r * kLanes + k % kLanes;
      lane_add<dot2_add_exact>(s[l], c[l], abs[l], x[k], y[r][k]);
    }
}

bool all_float32_portable(const double* v, std::size_t n) {
  bool ok = true;
  for (std::size_t k = 0; k < n; ++k) ok &= is_float32(v[k]);
  return ok;
}

void weighted_row_sums_portable(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                                double* sum_a, double* sum_b) {
  for (std::size_t q = 0; q < kMergeRows; ++q) sum_a[q] = sum_b[q] = 0;
  for (std::size_t j = 0; j < r; ++j)
    for (std::size_t q = 0; q < kMergeRows; ++q) {
      sum_a[q] = sum_a[q] + w_a[j] * m[j * ldm + q];
      sum_b[q] = sum_b[q] + w_b[j] * m[j * ldm + q];
    }
}

void tn_portable(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  for (std::size_t i = 0; i < op.a_cols; ++i)
    for (std::size_t k = k0; k < k1; ++k) {
      Dot2State& st = out[i * op.b_cols + k];
      for (std::size_t m = 0; m < op.a_rows.size(); ++m) dot2_add(st, op.a_rows[m][i], op.b_rows[m][k]);
    }
}

}  // namespace parity::oracles::dot2_detail
