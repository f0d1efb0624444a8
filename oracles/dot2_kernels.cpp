#include <parity/oracles/dot2_kernels.hpp>

#include <algorithm>
#include <stdexcept>

#include <parity/core/thread_pool.hpp>

#include <parity/oracles/dot2_ranges.hpp>

namespace parity::oracles {
namespace dot2_detail {

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

// NT works on blocks of b rows that together fill at most about 256 KiB (they stay in L2
// while every a row passes), and at most 1/16 of the b rows, so that two threads share them
// evenly; TN on blocks of 64 output columns. Both sizes depend on the shape only, never on
// the thread count.
constexpr std::size_t kNtBlockDoubles = 32768;
constexpr std::size_t kNtMinBlocks = 16;
constexpr std::size_t kTnBlockColumns = 64;

std::size_t blocks(std::size_t total, std::size_t block) { return (total + block - 1) / block; }

struct NtPaths {
  dot2_detail::Segments segments;
  dot2_detail::Segments exact_segments;
  dot2_detail::AllFloat32 all_float32;
  dot2_detail::Finish finish;
  dot2_detail::LaneSums lane_sums;
};

// Throws unless every v[0..n) is a float32 value (NtOperands::exact's requirement).
void require_float32(const NtPaths& paths, const double* v, std::size_t n) {
  if (!paths.all_float32(v, n)) throw std::invalid_argument("dot2_nt: exact operand is not a float32 value");
}

// One segment for b rows [j, j + rows), rows <= kMergeRows, kBlockRows at a time: by
// exact_segments when `exact`; from zero lanes when `fresh` (Segments).
void segment(const NtPaths& paths, bool exact, bool fresh, double* s, double* c, double* abs, const double* x,
             const double* const* y, std::size_t rows, std::size_t n) {
  using dot2_detail::kBlockRows, dot2_detail::kLanes;
  for (std::size_t r = 0; r < rows; r += kBlockRows) {
    const std::size_t o = r * kLanes, m = std::min(kBlockRows, rows - r);
    (exact ? paths.exact_segments : paths.segments)(s + o, c + o, abs + o, x, y + r, m, n, fresh);
  }
}

// dot2_nt for b rows [j0, j1) and every a row, kMergeRows b rows at a time.
void nt_range(const NtOperands& op, const std::function<void(const NtGroup&)>& sink, std::size_t j0, std::size_t j1,
              const NtPaths& paths) {
  using dot2_detail::kLanes, dot2_detail::kMergeRows;
  double hi[kMergeRows], lo[kMergeRows], err_dd[kMergeRows], sum_abs[kMergeRows], first_abs[kMergeRows];
  for (std::size_t j = j0; op.exact && j < j1; ++j) require_float32(paths, op.b + j * op.ldb, op.n);
  for (std::size_t i = 0; i < op.a_rows; ++i)
    for (std::size_t j = j0; j < j1; j += kMergeRows) {
      const std::size_t rows = std::min(kMergeRows, j1 - j);
      // The first segment starts the lanes of the group's rows; finish reads every row's, so
      // those past a partial group's end are cleared.
      double s[kMergeRows * kLanes], c[kMergeRows * kLanes], abs[kMergeRows * kLanes];
      std::fill(s + rows * kLanes, s + kMergeRows * kLanes, 0.0);
      std::fill(c + rows * kLanes, c + kMergeRows * kLanes, 0.0);
      std::fill(abs + rows * kLanes, abs + kMergeRows * kLanes, 0.0);
      const double *b[kMergeRows], *b2[kMergeRows];
      for (std::size_t r = 0; r < rows; ++r) {
        b[r] = op.b + (j + r) * op.ldb;
        b2[r] = op.n2 ? op.b2 + (j + r) * op.ldb2 : nullptr;
      }
      segment(paths, op.exact, true, s, c, abs, op.a + i * op.lda, b, rows, op.n);
      paths.lane_sums(abs, first_abs);
      if (op.n2) segment(paths, false, false, s, c, abs, op.a2 + i * op.lda2, b2, rows, op.n2);
      paths.finish(s, c, abs, op.n + op.n2, hi, lo, err_dd, sum_abs);
      sink({i, j, rows, hi, lo, err_dd, sum_abs, first_abs});
    }
}

}  // namespace

void dot2_nt(const NtOperands& op, const std::function<void(const NtGroup&)>& sink, Isa isa) {
  constexpr std::size_t kGroup = dot2_detail::kMergeRows;
  const std::size_t fit = kNtBlockDoubles / std::max<std::size_t>(op.n, 1);
  const std::size_t share = blocks(op.b_rows, kNtMinBlocks);
  const std::size_t rows =
      std::clamp<std::size_t>(std::min(fit, blocks(share, kGroup) * kGroup) / kGroup * kGroup, kGroup, 256);
  const NtPaths paths =
      isa == Isa::avx512
          ? NtPaths{dot2_detail::segments_avx512, dot2_detail::exact_segments_avx512, dot2_detail::all_float32_avx512,
                    dot2_detail::finish_avx512, dot2_detail::lane_sums_avx512}
      : isa == Isa::avx2
          ? NtPaths{dot2_detail::segments_avx2, dot2_detail::exact_segments_avx2, dot2_detail::all_float32_portable,
                    dot2_detail::finish_portable, dot2_detail::lane_sums_portable}
          : NtPaths{dot2_detail::segments_portable, dot2_detail::exact_segments_portable,
                    dot2_detail::all_float32_portable, dot2_detail::finish_portable, dot2_detail::lane_sums_portable};
  for (std::size_t i = 0; op.exact && i < op.a_rows; ++i) require_float32(paths, op.a + i * op.lda, op.n);
  parallel_chunks(blocks(op.b_rows, rows), [&](std::size_t chunk) {
    nt_range(op, sink, chunk * rows, std::min(op.b_rows, (chunk + 1) * rows), paths);
  });
}

void weighted_row_sums(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                       double* sum_a, double* sum_b, Isa isa) {
  (isa == Isa::avx512 ? dot2_detail::weighted_row_sums_avx512 : dot2_detail::weighted_row_sums_portable)(
      m, ldm, r, w_a, w_b, sum_a, sum_b);
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
