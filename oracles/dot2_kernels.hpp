#pragma once
// Blocked, vectorised and parallel Dot2 (oracles/dot2.hpp) over whole matrices: the fast
// accurate oracle's two kernels. Every output element is computed by one thread in one fixed
// order, so results are the same bits with any PARITY_THREADS (core/thread_pool.hpp) and on
// every instruction set: the AVX-512, AVX2 and portable paths perform the same IEEE
// operations on the same lanes (tested bitwise by fast_oracle_dot2_test).
#include <cstddef>
#include <functional>
#include <span>

#include <parity/core/isa.hpp>
#include <parity/oracles/dot2.hpp>

namespace parity::oracles {

// The instruction sets (core/isa.hpp), shared with the host twins' kernels.
using parity::best_isa;
using parity::Isa;
using parity::isa_name;

// Row by row: a [a_rows][n] (row stride lda), b [b_rows][n] (row stride ldb), and an
// optional second segment a2 [a_rows][n2], b2 [b_rows][n2] that continues every dot product
// (a_i . b_j + a2_i . b2_j), as if the rows were concatenated.
struct NtOperands {
  const double* a = nullptr;
  std::size_t lda = 0, a_rows = 0;
  const double* b = nullptr;
  std::size_t ldb = 0, b_rows = 0;
  std::size_t n = 0;
  const double* a2 = nullptr;
  std::size_t lda2 = 0;
  const double* b2 = nullptr;
  std::size_t ldb2 = 0, n2 = 0;
  // The first segment's products by dot2_add_exact (oracles/dot2.hpp): every value of its a
  // and b rows must be a float32 value (is_float32); dot2_nt checks and throws
  // std::invalid_argument otherwise. The second segment always takes dot2_add.
  bool exact = false;
};

// The most outputs in one NtGroup.
inline constexpr std::size_t kNtGroupRows = 8;

// Outputs (i, j + r) of dot2_nt for r < rows (at most kNtGroupRows), element r of each array: the
// fields of their Dot2Result and first_abs, the first segment's float sum of |products| alone.
struct NtGroup {
  std::size_t i = 0, j = 0, rows = 0;
  const double* hi = nullptr;
  const double* lo = nullptr;
  const double* err_dd = nullptr;
  const double* abs = nullptr;
  const double* first_abs = nullptr;
};

// Hands every output (i, j) to `sink`, in groups of consecutive j, each group once, from one of
// up to thread_count() threads (core/thread_pool.hpp; the sink must be safe to call
// concurrently for different groups). Output (i, j) = dot2_finish of the Dot2 state of
// a_i . b_j (+ a2_i . b2_j), by dot2_add (dot2_add_exact for the first segment when
// op.exact). Fixed lane layout: eight lanes; term k of each segment in lane
// k mod 8, each lane in ascending k, the first segment before the second; the lanes are then
// merged in lane order (dot2_merge, so terms = n + n2 and merges = 7). first_abs is the
// lanes' sums of |products| over the first segment, added in lane order. `isa` must be
// supported by this CPU (at most best_isa()).
void dot2_nt(const NtOperands& op, const std::function<void(const NtGroup&)>& sink, Isa isa = best_isa());

// Two weighted sums of the r rows of m (row j at m + j ldm, each with kNtGroupRows readable
// values), for q < kNtGroupRows: sum_a[q] = sum over j < r, ascending, of w_a[j] m[j ldm + q],
// each term a rounded product then a rounded addition from 0 (no fma), and sum_b likewise with
// w_b. The same bits on every isa; the LoRA oracle's bound sums over a group of outputs.
void weighted_row_sums(const double* m, std::size_t ldm, std::size_t r, const double* w_a, const double* w_b,
                       double* sum_a, double* sum_b, Isa isa = best_isa());

// Column by column: M terms, the m-th being a_rows[m][i] * b_rows[m][k].
struct TnOperands {
  std::span<const double* const> a_rows;  // M pointers, each to a_cols values
  std::span<const double* const> b_rows;  // M pointers, each to b_cols values
  std::size_t a_cols = 0, b_cols = 0;
};

// out[i * b_cols + k] accumulates sum_m a_rows[m][i] * b_rows[m][k] with dot2_add, m
// ascending: the caller initialises out (Dot2State{} to start, or a previous result to
// continue). out holds a_cols * b_cols states.
void dot2_tn(const TnOperands& op, Dot2State* out, Isa isa = best_isa());

}  // namespace parity::oracles
