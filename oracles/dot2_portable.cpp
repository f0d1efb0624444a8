// The portable Dot2 kernels: plain scalar code in exactly the lane structure of
// dot2_avx2.cpp, so both give the same bits.
#include "oracles/dot2_ranges.hpp"

namespace parity::oracles::dot2_detail {
namespace {

// dot2_add on a lane's (s, c, abs).
inline void lane_add(double& s, double& c, double& abs, double a, double b) {
  Dot2State st{s, c, abs, 0, 0};
  dot2_add(st, a, b);
  s = st.s;
  c = st.c;
  abs = st.abs;
}

}  // namespace

void segment_portable(double* s, double* c, double* abs, const double* x, const double* y, std::size_t n) {
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) lane_add(s[l], c[l], abs[l], x[k + l], y[k + l]);
  for (std::size_t k = body; k < n; ++k) lane_add(s[k - body], c[k - body], abs[k - body], x[k], y[k]);
}

void tn_portable(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1) {
  for (std::size_t i = 0; i < op.a_cols; ++i)
    for (std::size_t k = k0; k < k1; ++k) {
      Dot2State& st = out[i * op.b_cols + k];
      for (std::size_t m = 0; m < op.a_rows.size(); ++m) dot2_add(st, op.a_rows[m][i], op.b_rows[m][k]);
    }
}

}  // namespace parity::oracles::dot2_detail
