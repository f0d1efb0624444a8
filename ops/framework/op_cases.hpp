#pragma once
// The generator of an op's Cases, derived from its declaration (op_problem.hpp says what each
// field means), and its CaseRules.
//
// Each extent is small (1 to 8: fast, and where shrinking goes) three times in ten, an edge size
// (gen::extent: primes, 2^k - 1, 2^k, 2^k + 1, or any value up to its max) two in ten, and one
// of its declared plan thresholds or a neighbour +-1 five in ten (an extent without thresholds:
// small four in seven, an edge size three); then the extents are halved (the row extent first
// down to 2 rows, then the widest, then the rows down to 1) until the largest operand fits the
// op's max_elements and its work (with the extra batch row) its max_work. The dtype of each
// group, each parameter and each input's scale come from their declared lists (the first is
// where shrinking goes); each input gets a layout (contiguous a third of the time, 1-D inputs
// never transposed); up to three patches put float32 special values or values straddling a
// bf16 rounding boundary (bf16 and f16 inputs: their own special values) on random real input
// elements (never a ragged extent's padding, op_decl.hpp real_element); an optional input
// the parameters leave absent gets neither. Each row's length of a ragged extent (op_decl.hpp) is
// small (1 to 8) three in ten, a threshold of the extent up to the case's value or a neighbour
// five in ten, the value itself two in ten; shrinking takes it toward 1, and conform clamps it
// into [1, the extent's value] (1 for a row without one).
//
// Reach cases: where the op declares a reach (op_decl.hpp, has_reach), one case in kReachEvery
// draws its extents again, as the sizes real kernels switch plan at beyond the oracle's caps:
// an extent that reaches past its max at a threshold past its max (with max + 1) or a neighbour
// +-1 seven in ten, its reach two in ten, small (min to min + 7) one in ten (there only so that
// the other extents reach further: few rows of the widest width, many of a narrow one); an extent
// whose reach is its max as an ordinary case draws it (small three in ten, a threshold up to max
// or a neighbour five, max two); then halved as above until its largest operand fits
// reach_elements and its work reach_work.
// Its probe row, patch elements and ragged lengths are drawn in those extents. The decision is the case's last
// draw, so every other case is drawn exactly as the declaration without reach draws it, and
// shrinking it goes to an ordinary case (the draw shrinks to 0, not a reach case).
// kReachEvery = 16: a property's 100 cases hold about 6 reach cases, each costing up to the
// reach caps, while the other 94 keep the ordinary cases' detection of the probes (the cost
// in CPU of either rate: ops/README.md, "Reach cases").
#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/properties/gen/case_rules.hpp>

namespace parity::ops {

inline constexpr int kReachEvery = 16;  // the header comment above

// `strided_layouts` false: every input contiguous, and a parameter that orders dims
// (TensorDecl::order_param) only at values that keep a subject's tensors contiguous (a subject
// without that capability).
rc::Gen<Case> op_case(const OpDecl& decl, bool strided_layouts = true);
// op_case(op.decl), then, two cases in three, 1 to 8 output-straddling patches placed through
// the reference on the probe row (op_straddle.hpp; none where no output is bf16 or f16).
rc::Gen<Case> op_case(const OpDef& op, bool strided_layouts = true);

// Whether the largest operand of `dims` holds at most `max_elements` and its work at most
// `max_work`, each with batch_vs_batch's extra row.
bool fits(const OpDecl& decl, const std::map<std::string, std::int64_t>& dims, std::int64_t max_elements,
          std::int64_t max_work);
// Halves extents (never below their min), the row extent first down to 2 rows, then the widest
// that can shrink, then the rows down to their min, until `fits` (or none can shrink:
// check_contract then refuses the Case).
void fit_extents(const OpDecl& decl, std::map<std::string, std::int64_t>& dims, std::int64_t max_elements,
                 std::int64_t max_work);

// check_contract of op_problem.hpp; conform keeps probe_row below the row extent and every patch
// index inside its operand and on a real element, and drops the layouts and patches of absent optional inputs.
gen::CaseRules op_rules(const OpDecl& decl);

}  // namespace parity::ops
