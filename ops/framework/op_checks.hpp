#pragma once
// The properties every op gets from its declaration: check functions Case -> Verdict (plain C++,
// no RapidCheck), the same for generated cases, replays and reproducers.
//   repeatable            the same inputs in fresh buffers give the same bits (a failure is of kind
//                         nondeterministic: a replay runs it several times)
//   rows_independent      each compared row of a batch of the row extent (every row of up to
//                         kRowsCompared, else that many spread evenly, with the probe row and the
//                         last) gives the bits of that row alone; discarded for one row, or when
//                         the rows hold the same bits
//   batch_vs_batch        every row of a batch of T rows gives the bits of the same row in a batch
//                         of T + 1 (B vs B': a plan chosen from the total row count shows here
//                         even where one row alone agrees); discarded for T < 2
//   rows_permuted         each row of a batch gives its bits when the batch runs with its rows
//                         reordered by descending norm of its first row-led input, or reversed
//                         where they already lie so (batch_shapes.hpp's permuted_order:
//                         deterministic, from the contents); discarded for one row or where no
//                         input is led by the row extent
//   rows_padded           each row of a batch gives its bits when the batch is padded with rows
//                         of +0 to the next power of two strictly above its row count (a bucket)
//   rows_chunked          the batch run as consecutive chunks of ceil(T / 3) rows gives the bits
//                         of the whole batch, row for row; discarded for one row
//   (these five compare the outputs led by the row extent, and are discarded where the subject's
//   unchecked_outputs leave none: an output summed over the rows has no row to compare; the last
//   three run contiguous inputs, so that only the batch's shape differs, and name the first row
//   that differs)
//   layout_invariant      the case's strided and offset inputs give the bits of contiguous ones;
//                         discarded when every input is contiguous
//   forward_accuracy      every output element within its derived bound (bounded.hpp, under the
//                         subject's declared Arithmetic, then the output dtype's rounding); the
//                         utilisation is reported, on failure too (bound_utilisation, the largest; per output
//                         <output>_bound_utilisation and <output>_rel_err_vs_fp64, the norm-wise
//                         relative error of the checked elements); where the float evaluation may overflow a
//                         non-finite value is accepted and a finite one checked (counted:
//                         may_overflow, overflowed); elements exempt from their bound are
//                         counted (exempt), and a case where no element was checked is discarded.
//                         A case past the oracle's caps (a reach case, op_cases.hpp) checks the
//                         rows accuracy_rows draws, the reference run on them alone against the
//                         whole batch's outputs at those rows; its outputs not led by the row
//                         extent (summed over the rows) go unchecked, named in the detail; a case
//                         of which one row alone is past the caps is discarded. Metric rows_checked.
//                         Where the checked rows' work is at least kFilterWork (and OpDef::filter),
//                         the filter is asked first (filtered.hpp: a BLAS's values, and lower
//                         bounds of the bounds): a case whose every checked element it finds
//                         within a lower bound of its bound passes with no Bounded evaluation,
//                         its figures upper bounds
//                         (decided_by_filter 1, bound_utilisation_at_most and per output
//                         <output>_bound_utilisation_at_most; <output>_rel_err_vs_fp64 against the
//                         filter's double values); any other case is checked as above.
//   oracle_agreement      a self-check of parity's oracle, calling no subject: the double oracle,
//                         and the Bounded reference's own value (the one forward_accuracy's bounds
//                         are centred on, which may sum in another order), each within the derived
//                         bound (Arithmetic::float64()) of the MPFR one, on the first rows of the
//                         case (at most kOracleCheckElements); bound_utilisation the larger; and
//                         the filter's value (filtered.hpp) within its own d of the MPFR one, its
//                         lo no larger than Bounded's bound
//   cross_backend_bitwise a subject and its host twin give the same bits
// A subject's unchecked_outputs (op_subject.hpp) are left out of every comparison. A failing
// verdict on a wrong value carries an element map (core/element_map.hpp) of its first failing
// output: where bits differ over the compared rows (for rows_independent the rows compared up to the first that
// differs, the others not measured), or |error| / bound per element for forward_accuracy.
#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

inline constexpr std::int64_t kOracleCheckElements = 4096;
inline constexpr std::int64_t kRowsCompared = 256;
// The work (OpDecl::work over the checked rows) from which forward_accuracy asks the filter first:
// below it Bounded's evaluation costs little and its figures are exact (2^20 multiply-adds: a few
// milliseconds of Bounded's matrix products). An op that declares no work (norms, softmax, SwiGLU:
// no products, where the filter costs about what Bounded does, bench/op_oracle_bench) is never
// filtered.
inline constexpr std::int64_t kFilterWork = std::int64_t{1} << 20;

// The rows forward_accuracy checks: every row where the case's rows (without the extra batch row)
// fit the op's max_work, and max_elements in each operand led by the row extent (a shared weight
// costs the oracle only through the work); else as many as fit, the probe row, the last row and
// rows k * T / n spread evenly, ascending (the same for the same case); none where one row
// alone does not fit.
std::vector<std::int64_t> accuracy_rows(const OpDecl& decl, const Case& c);

Verdict repeatable(const OpDef& op, const Case& c, OpSubject& s);
Verdict rows_independent(const OpDef& op, const Case& c, OpSubject& s);
Verdict batch_vs_batch(const OpDef& op, const Case& c, OpSubject& s);
Verdict rows_permuted(const OpDef& op, const Case& c, OpSubject& s);
Verdict rows_padded(const OpDef& op, const Case& c, OpSubject& s);
Verdict rows_chunked(const OpDef& op, const Case& c, OpSubject& s);
Verdict layout_invariant(const OpDef& op, const Case& c, OpSubject& s);
Verdict forward_accuracy(const OpDef& op, const Case& c, OpSubject& s);
Verdict oracle_agreement(const OpDef& op, const Case& c);
Verdict cross_backend_bitwise(const OpDef& op, const Case& c, OpSubject& s, OpSubject& twin);

}  // namespace parity::ops
