#pragma once
// The single-threaded pieces of oracles/dot2_kernels.hpp, one set per instruction set
// (dot2_portable.cpp, dot2_avx2.cpp), for dot2_kernels.cpp to partition and dispatch.
// Private to the kernels: include dot2_kernels.hpp instead.
#include "oracles/dot2_kernels.hpp"

namespace parity::oracles::dot2_detail {

inline constexpr std::size_t kLanes = 8;

// The Dot2 state of eight lanes' sums, merged in lane order; `terms` products in all.
Dot2State merge_lanes(const double* s, const double* c, const double* abs, std::size_t terms);

// The eight values added in lane order.
double lane_sum(const double* v);

// One segment of n products x[k] y[k] into the eight lanes' (s, c, abs), term k in lane
// k mod 8: dot2_nt's inner loop.
void segment_portable(double* s, double* c, double* abs, const double* x, const double* y, std::size_t n);
void segment_avx2(double* s, double* c, double* abs, const double* x, const double* y, std::size_t n);

// dot2_tn for output columns [k0, k1) and every output row.
void tn_portable(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);
void tn_avx2(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);

}  // namespace parity::oracles::dot2_detail
