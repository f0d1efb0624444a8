#pragma once
// The single-threaded pieces of oracles/dot2_kernels.hpp, one set per instruction set
// (dot2_portable.cpp, dot2_avx2.cpp, dot2_avx512.cpp), for dot2_kernels.cpp to partition and
// dispatch. Private to the kernels: include dot2_kernels.hpp instead.
#include <parity/oracles/dot2_kernels.hpp>

namespace parity::oracles::dot2_detail {

inline constexpr std::size_t kLanes = 8;
// The most b rows one segments call takes (they share each load of x).
inline constexpr std::size_t kBlockRows = 4;

// dot2_nt's outputs are finished kMergeRows at a time, from lanes (s, c, abs) + r kLanes.
inline constexpr std::size_t kMergeRows = kNtGroupRows;

// For r < kMergeRows: hi[r], lo[r], err_dd[r], abs[r] = the Dot2Result of the eight lanes of
// row r merged in lane order (dot2_merge), with `terms` products and 7 merges.
using Finish = void (*)(const double* s, const double* c, const double* abs, std::size_t terms, double* hi_out,
                        double* lo_out, double* err_dd_out, double* abs_out);
void finish_portable(const double* s, const double* c, const double* abs, std::size_t terms, double* hi_out,
                     double* lo_out, double* err_dd_out, double* abs_out);
void finish_avx512(const double* s, const double* c, const double* abs, std::size_t terms, double* hi_out,
                   double* lo_out, double* err_dd_out, double* abs_out);

// For r < kMergeRows: sums[r] = the eight lanes v + r kLanes added in lane order.
using LaneSums = void (*)(const double* v, double* sums);
void lane_sums_portable(const double* v, double* sums);
void lane_sums_avx512(const double* v, double* sums);

// The (s, c, abs) of eight consecutive states, and back, each having gained `terms` products:
// the TN kernels' view of eight output columns.
void unpack_states(const Dot2State* st, double* s, double* c, double* abs);
void pack_states(Dot2State* st, const double* s, const double* c, const double* abs, std::size_t terms);

// dot2_add (or Step, e.g. dot2_add_exact) on one lane's (s, c, abs): the scalar step every
// kernel's tails use.
template <void (*Step)(Dot2State&, double, double) = dot2_add>
inline void lane_add(double& s, double& c, double& abs, double a, double b) {
  Dot2State st{s, c, abs, 0, 0};
  Step(st, a, b);
  s = st.s;
  c = st.c;
  abs = st.abs;
}

// dot2_nt's inner loop: for each r < rows (at most kBlockRows), one segment of n products
// x[k] y[r][k] into the eight lanes (s, c, abs) + r kLanes, term k in lane k mod 8. When
// `fresh` the lanes start at zero (Dot2State{}) and their old contents are not read (the
// caller need not clear them), else the segment continues them.
using Segments = void (*)(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                          std::size_t n, bool fresh);
void segments_portable(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                       std::size_t n, bool fresh);
void segments_avx2(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                   std::size_t n, bool fresh);
void segments_avx512(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                     std::size_t n, bool fresh);

// Segments with dot2_add_exact (NtOperands::exact).
void exact_segments_portable(double* s, double* c, double* abs, const double* x, const double* const* y,
                             std::size_t rows, std::size_t n, bool fresh);
void exact_segments_avx2(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                         std::size_t n, bool fresh);
void exact_segments_avx512(double* s, double* c, double* abs, const double* x, const double* const* y, std::size_t rows,
                           std::size_t n, bool fresh);

// True when every v[0..n) is_float32 (oracles/dot2.hpp): NtOperands::exact's check.
using AllFloat32 = bool (*)(const double* v, std::size_t n);
bool all_float32_portable(const double* v, std::size_t n);
bool all_float32_avx512(const double* v, std::size_t n);

// weighted_row_sums (dot2_kernels.hpp) on one instruction set.
using WeightedRowSums = void (*)(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                                 double* sum_a, double* sum_b);
void weighted_row_sums_portable(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                                double* sum_a, double* sum_b);
void weighted_row_sums_avx512(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                              double* sum_a, double* sum_b);

// dot2_tn for output columns [k0, k1) and every output row.
using TnRange = void (*)(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);
void tn_portable(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);
void tn_avx2(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);
void tn_avx512(const TnOperands& op, Dot2State* out, std::size_t k0, std::size_t k1);

}  // namespace parity::oracles::dot2_detail
