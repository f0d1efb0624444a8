#pragma once
// What a Case of an op means (every field, and the contract every generated Case satisfies):
//   dims         one value per declared extent, in [min, limit] (generated: [min, max], max the
//                declared one or the user's cap)
//   params       each declared parameter (a float32 value in [min, max], an integer where every
//                declared value is one), and nothing else; "dtype.<group>" for
//                each dtype group: 16 (bf16), 32 (f32), 64 (f64) or 116 (f16, IEEE
//                binary16), one of the declared dtypes;
//                "scale.<input>" for an input with several declared scales: one of them;
//                "<input>.<b>" for each row b of an input with a value per row (TensorDecl::values):
//                a float32 in its [min, max], element b of that input;
//                "<extent>.<b>" for each row b of a ragged extent (ExtentDecl::ragged): row b's
//                length, an integer in [1, dims.<extent>]
//   seed         input element i of the k-th declared input is mean + stddev * scale *
//                philox_normal(seed, k + 1, i), rounded to its dtype (round to nearest even),
//                i its row-major logical index: the first rows of a taller batch are the same bits
//   patches      then overwrite logical elements of inputs with raw bits of their dtype (never
//                of an input with a value per row)
//   layouts      input -> Layout (2-D: core/layout.hpp; 1-D: ld_pad is the gap between
//                elements and transposed is refused); absent means contiguous
//   probe_row    a row of the row extent, the one the row properties compare
//   mode, ablations  not read by an op: strict and none
// The largest operand holds at most kElementsLimit and the work at most kWorkLimit (op_decl.hpp:
// the most a run's reach caps may reach), each with one extra row (batch_vs_batch's), and each
// operand's placed storage at most max_storage of its elements; an absent optional input
// (present_if) has no layout or patch. A Case past any is refused before anything is allocated, naming the field.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

// The largest placed storage of an operand of `elements` elements: 16 times that (a layout's
// padding and offset around it), at least kMaxStorage and at most 4 kElementsLimit.
inline constexpr std::int64_t kMaxStorage = std::int64_t{1} << 24;
std::int64_t max_storage(std::int64_t elements);

struct OpProblem {
  OpCall call;      // the inputs in the case's layouts, what a subject is given
  OpValues values;  // the same inputs' exact logical values, for the references
};

// The Case's dtype code of a dtype (16, 32, 64, 116) and back (InputError naming `field`).
int dtype_code(DType t);
DType dtype_from_code(double code, const std::string& field);
// The dtype of operand `t` in `c`: its group's "dtype.<group>" (InputError naming the field when
// missing or not a dtype code).
DType case_dtype(const TensorDecl& t, const Case& c);

// Why `v` is outside parameter `p`'s contract (params, above), or "" when it is inside.
std::string param_value_refusal(const ParamDecl& p, double v);
// Throws InputError naming the field of `c` that is outside the op's contract (header comment);
// a patch at a padding element (real elements, op_decl.hpp) is outside it.
void check_contract(const OpDecl& decl, const Case& c);

// Each ragged extent's lengths in `c` (ExtentDecl::ragged), one a row of its row extent: the
// parameters "<extent>.<b>", 1 where one is missing (check_contract refuses that case).
RaggedLengths case_lengths(const OpDecl& decl, const Case& c);

// The problem of `c` with `extra_rows` more rows along the row extent (the same bits in the
// first rows; an input with a value per row takes the case's row 0's value in the extra rows, and
// so does each ragged extent's length), +0 at every padding element of an input (real elements,
// op_decl.hpp), in the case's layouts or, with `contiguous`, in none.
OpProblem materialise(const OpDecl& decl, const Case& c, std::int64_t extra_rows = 0, bool contiguous = false);

// Rows [begin, end) of a materialised problem as a problem of its own (contiguous inputs).
OpProblem row_slice(const OpDecl& decl, const OpProblem& p, std::int64_t begin, std::int64_t end);

// A problem of the rows `order` of a materialised problem, in that order: entry k is a row of
// `p` (any row any number of times), or kZeroRow for a row of +0 in every row-led input (a padding
// row; an input with a value per row takes the value of `p`'s row 0 there, and each ragged extent
// row 0's length). Row slices and gathers carry each row's ragged lengths with it. Inputs not led by the row extent are
// `p`'s; row-led ones are contiguous.
inline constexpr std::int64_t kZeroRow = -1;
OpProblem row_gather(const OpDecl& decl, const OpProblem& p, const std::vector<std::int64_t>& order);

// The rows of the row extent in `p`.
std::int64_t rows(const OpDecl& decl, const OpProblem& p);

}  // namespace parity::ops
