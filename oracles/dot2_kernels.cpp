#include "oracles/dot2_kernels.hpp"

#include <algorithm>

#include "oracles/dot2_ranges.hpp"
#include "oracles/parallel.hpp"

namespace parity::oracles {
namespace dot2_detail {

Dot2State merge_lanes(const double* s, const double* c, const double* abs, std::size_t terms) {
  Dot2State st{s[0], c[0], abs[0], 0, 0};
  for (std::size_t l = 1; l < kLanes; ++l) dot2_merge(st, Dot2State{s[l], c[l], abs[l], 0, 0});
  st.terms = static_cast<std::int64_t>(terms);
  return st;
}

double lane_sum(const double* v) {
  double sum = v[0];
  for (std::size_t l = 1; l < kLanes; ++l) sum = sum + v[l];
  return sum;
}

}  // namespace dot2_detail

namespace {

// NT works on blocks of b rows that together fill about 256 KiB (they stay in L2 while
// every a row passes); TN on blocks of 64 output columns. Both sizes depend on the shape
// only, never on the thread count.
constexpr std::size_t kNtBlockDoubles = 32768;
constexpr std::size_t kTnBlockColumns = 64;

std::size_t blocks(std::size_t total, std::size_t block) { return (total + block - 1) / block; }

using Segment = void (*)(double*, double*, double*, const double*, const double*, std::size_t);

// dot2_nt for b rows [j0, j1) and every a row.
void nt_range(const NtOperands& op, Dot2State* out, double* first_abs, std::size_t j0, std::size_t j1,
              Segment segment) {
  constexpr std::size_t kLanes = dot2_detail::kLanes;
  for (std::size_t i = 0; i < op.a_rows; ++i)
    for (std::size_t j = j0; j < j1; ++j) {
      double s[kLanes] = {}, c[kLanes] = {}, abs[kLanes] = {};
      segment(s, c, abs, op.a + i * op.lda, op.b + j * op.ldb, op.n);
      if (first_abs) first_abs[i * op.b_rows + j] = dot2_detail::lane_sum(abs);
      if (op.n2) segment(s, c, abs, op.a2 + i * op.lda2, op.b2 + j * op.ldb2, op.n2);
      out[i * op.b_rows + j] = dot2_detail::merge_lanes(s, c, abs, op.n + op.n2);
    }
}

}  // namespace

Isa best_isa() {
  static const Isa isa = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? Isa::avx2 : Isa::portable;
  return isa;
}

void dot2_nt(const NtOperands& op, Dot2State* out, double* first_abs, Isa isa) {
  const std::size_t rows = std::clamp<std::size_t>(kNtBlockDoubles / std::max<std::size_t>(op.n, 1), 1, 256);
  const Segment segment = isa == Isa::avx2 ? dot2_detail::segment_avx2 : dot2_detail::segment_portable;
  parallel_chunks(blocks(op.b_rows, rows), [&](std::size_t chunk) {
    nt_range(op, out, first_abs, chunk * rows, std::min(op.b_rows, (chunk + 1) * rows), segment);
  });
}

void dot2_tn(const TnOperands& op, Dot2State* out, Isa isa) {
  const auto range = isa == Isa::avx2 ? dot2_detail::tn_avx2 : dot2_detail::tn_portable;
  parallel_chunks(blocks(op.b_cols, kTnBlockColumns), [&](std::size_t chunk) {
    range(op, out, chunk * kTnBlockColumns, std::min(op.b_cols, (chunk + 1) * kTnBlockColumns));
  });
}

}  // namespace parity::oracles
