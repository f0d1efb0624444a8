// The portable Dot2 kernels: plain scalar code in exactly the lane structure of
// dot2_avx2.cpp and dot2_avx512.cpp, so all give the same bits.
#include "oracles/dot2_ranges.hpp"

namespace parity::oracles::dot2_detail {

void segments_portable(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                       std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t l = r * kLanes + k % kLanes;
      lane_add(s[l], c[l], abs[l], x[k], y[r][k]);
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
