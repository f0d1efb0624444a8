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

void unpack_states(const Dot2State* st, double* s, double* c, double* abs) {
  for (std::size_t l = 0; l < kLanes; ++l) {
    s[l] = st[l].s;
    c[l] = st[l].c;
    abs[l] = st[l].abs;
  }
}

void pack_states(Dot2State* st, const double* s, const double* c, const double* abs, std::size_t terms) {
  for (std::size_t l = 0; l < kLanes; ++l)
    st[l] = {s[l], c[l], abs[l], st[l].terms + static_cast<std::int64_t>(terms), st[l].merges};
}

}  // namespace dot2_detail

namespace {

// NT works on blocks of b rows that together fill about 256 KiB (they stay in L2 while
// every a row passes); TN on blocks of 64 output columns. Both sizes depend on the shape
// only, never on the thread count.
constexpr std::size_t kNtBlockDoubles = 32768;
constexpr std::size_t kTnBlockColumns = 64;

std::size_t blocks(std::size_t total, std::size_t block) { return (total + block - 1) / block; }

// dot2_nt for b rows [j0, j1) and every a row, kBlockRows b rows at a time.
void nt_range(const NtOperands& op, Dot2State* out, double* first_abs, std::size_t j0, std::size_t j1,
              dot2_detail::Segments segments) {
  using dot2_detail::kBlockRows, dot2_detail::kLanes;
  for (std::size_t i = 0; i < op.a_rows; ++i)
    for (std::size_t j = j0; j < j1; j += kBlockRows) {
      const std::size_t rows = std::min(kBlockRows, j1 - j);
      double s[kBlockRows * kLanes] = {}, c[kBlockRows * kLanes] = {}, abs[kBlockRows * kLanes] = {};
      const double* b[kBlockRows];
      const double* b2[kBlockRows];
      for (std::size_t r = 0; r < rows; ++r) {
        b[r] = op.b + (j + r) * op.ldb;
        b2[r] = op.n2 ? op.b2 + (j + r) * op.ldb2 : nullptr;
      }
      segments(s, c, abs, op.a + i * op.lda, b, rows, op.n);
      if (first_abs)
        for (std::size_t r = 0; r < rows; ++r) first_abs[i * op.b_rows + j + r] = dot2_detail::lane_sum(abs + r * kLanes);
      if (op.n2) segments(s, c, abs, op.a2 + i * op.lda2, b2, rows, op.n2);
      for (std::size_t r = 0; r < rows; ++r)
        out[i * op.b_rows + j + r] =
            dot2_detail::merge_lanes(s + r * kLanes, c + r * kLanes, abs + r * kLanes, op.n + op.n2);
    }
}

}  // namespace

Isa best_isa() {
  static const Isa isa = __builtin_cpu_supports("avx512f")                                ? Isa::avx512
                         : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? Isa::avx2
                                                                                          : Isa::portable;
  return isa;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512: return "avx512";
    case Isa::avx2: return "avx2";
    case Isa::portable: break;
  }
  return "portable";
}

void dot2_nt(const NtOperands& op, Dot2State* out, double* first_abs, Isa isa) {
  constexpr std::size_t kGroup = dot2_detail::kBlockRows;
  const std::size_t rows =
      std::clamp<std::size_t>(kNtBlockDoubles / std::max<std::size_t>(op.n, 1) / kGroup * kGroup, kGroup, 256);
  const dot2_detail::Segments segments = isa == Isa::avx512 ? dot2_detail::segments_avx512
                                         : isa == Isa::avx2 ? dot2_detail::segments_avx2
                                                            : dot2_detail::segments_portable;
  parallel_chunks(blocks(op.b_rows, rows), [&](std::size_t chunk) {
    nt_range(op, out, first_abs, chunk * rows, std::min(op.b_rows, (chunk + 1) * rows), segments);
  });
}

void dot2_tn(const TnOperands& op, Dot2State* out, Isa isa) {
  const dot2_detail::TnRange range = isa == Isa::avx512 ? dot2_detail::tn_avx512
                                     : isa == Isa::avx2 ? dot2_detail::tn_avx2
                                                        : dot2_detail::tn_portable;
  parallel_chunks(blocks(op.b_cols, kTnBlockColumns), [&](std::size_t chunk) {
    range(op, out, chunk * kTnBlockColumns, std::min(op.b_cols, (chunk + 1) * kTnBlockColumns));
  });
}

}  // namespace parity::oracles
