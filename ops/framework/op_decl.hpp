#pragma once
// An op family as a declaration (ops/README.md): its extents, operands, outputs and parameters,
// which extent indexes independent rows and which are reduced over, with optional hints of the
// extents at which kernels switch plan. Everything else — generators, properties, shrinking,
// reproducers, `parity check OP` — is derived from it (op_family.hpp). The reference that goes
// with a declaration is a template over the scalar type (op_reference.hpp).
//
// Shapes are expressions over the named extents: each dimension is a sum of products of extent
// names and integer literals ("T", "D", "B*H", "4*D", "H*2*P+H*Q"). An operand whose leading
// dimension is the row extent has one slice per independent row; the others (weights) are shared by
// every row.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <parity/core/dtype.hpp>

namespace parity::ops {

struct ExtentDecl {
  std::string name;
  // The largest value a generated case takes by default; a user's cap (`parity check OP --max
  // T=N`, $PARITY_MAX_<NAME>, parity_add_subject_tests(... MAX T=N)) moves it within [min, limit].
  std::int64_t max = 4096;
  // Sizes at which real kernels typically switch plan (tile, split, rows per block): the
  // generator draws each and its neighbours +-1 (op_cases.hpp), up to max in an ordinary case and
  // up to reach in a reach case.
  std::vector<std::int64_t> thresholds = {};
  // The smallest value the op takes: 0 for an extent that may vanish (rope's pass-through dims Q),
  // never for the row extent.
  std::int64_t min = 1;
  std::int64_t limit = std::int64_t{1} << 20;  // the contract: the largest value a Case may hold
  // The largest value a reach case draws (op_cases.hpp: the sizes the bitwise properties reach,
  // beyond what the oracle's caps let an ordinary case hold), in [max, limit]; 0 means max. A
  // user's cap sets max and reach alike.
  std::int64_t reach = 0;
  // A ragged extent (an extent other than the row extent, min 1): each row b has its own length
  // L_b in [1, the case's value], each drawn on its own: the case's value is an upper bound of the
  // lengths, not necessarily one of them, and is what a subject receives as max_seqlen (at least
  // every length, as FlashAttention's API requires). The Case holds L_b as the parameter "<name>.<b>" (ragged_key),
  // drawn at the extent's thresholds and their neighbours up to the case's value, small, or the value itself, one per
  // row; rows added by properties (the extra batch row, padding rows) take row 0's, and row slices, gathers,
  // permutations and chunks carry it with its row (op_problem.hpp). The engine keeps each operand as its padded matrix
  // (row b = element b padded to the bound, +0 at every padding position of an input, as materialise draws it, and of
  // an output); a subject sees an operand whose dims are (row extent, this extent, ...) packed: those two dims merged
  // into one of sum_b L_b, FlashAttention's varlen format (op_view.hpp), and the lengths through OpCall::cu_seqlens.
  // validate refuses a ragged extent an operand holds other than as its dims' second, or one that is the row extent or
  // may be 0.
  bool ragged = false;
};

// The largest value a reach case of `e` draws (ExtentDecl::reach, or max where it is 0).
inline std::int64_t reach_of(const ExtentDecl& e) { return e.reach == 0 ? e.max : e.reach; }

// An operand or output. Operands of one dtype group always share a dtype (x and its weight w,
// say); the group of an output fixes its dtype.
struct TensorDecl {
  std::string name;
  std::vector<std::string> shape = {};  // one expression per dimension
  std::string dtype_group = {};         // "" means its own name
  // Inputs only: values drawn as mean + stddev * scale * N(0, 1), scale one of `scales` (drawn
  // per case, case.params["scale.<name>"]: small activations are where eps matters), rounded to
  // the dtype; then element patches (special values, bf16-straddling values).
  double mean = 0.0, stddev = 1.0;
  std::vector<double> scales = {1.0};
  // Inputs only: an optional operand (a bias) names the parameter that says whether a case has
  // it: present where that parameter is nonzero; absent (no values, no tensor in the call, no
  // layout or patch) where it is 0. "" means always present.
  std::string present_if = {};
  // Optional, for an operand or output of higher rank: the dimensions of the tensor a subject
  // receives or returns, each an expression as shape's are, e.g. sdpa's q {"B", "Hkv*G", "S", "D"}
  // (its H = Hkv*G query heads) or rope's {"T", "H", "2*P+Q"}. The first is shape's first; the
  // others split shape's second (their product is it). The engine keeps the 2-D form, the matrix:
  // generation, layouts, patches, rows and the reference work on it. A subject is handed the view
  // of these dimensions over the matrix's storage, strides and offset (op_view.hpp), and returns
  // tensors of these dimensions in any strides. Empty: the subject's tensor is the matrix.
  std::vector<std::string> dims = {};
  // Optional, with dims: the order in which dims after the first run along the matrix's columns,
  // outermost first, each dim named by its expression, chosen per case by the integer parameter
  // `order_param`: orders[v] for value v (sdpa's layout: {"Hkv*G", "S", "D"} for 0 and
  // {"S", "Hkv*G", "D"} for 1, so layout 1 hands a subject [B, H, S, D] tensors whose memory is
  // [B, S, H, D]). Empty: dims' own order.
  std::string order_param = {};
  std::vector<std::vector<std::string>> orders = {};
  // Inputs only, optional: a value per row (transition_step's sigma). The input is then [row
  // extent], float32 alone, and its element b is case.params["<name>.<b>"], drawn from `values`
  // rounded to float32 (the first is where shrinking goes) and in a replayed Case any float32 in [min, max]: exact
  // for the reference, a tensor for a subject (a torch operator's argument as any input), carried
  // with its row by row slices and gathers; a row the Case does not hold (the extra batch row, a
  // padding row) takes values' first. Never patched nor straddled: every value is the Case's.
  std::vector<double> values = {};
  double min = 0.0, max = 0.0;

  std::string group() const { return dtype_group.empty() ? name : dtype_group; }
  bool per_row() const { return !values.empty(); }
};

// The Case parameter of row `b` of a per-row input (TensorDecl::values): "<name>.<b>".
inline std::string row_value_key(const TensorDecl& t, std::int64_t b) { return t.name + "." + std::to_string(b); }
// The row b of a key "<name>.<b>" of per-row input `t` (b written as std::to_string writes it), or
// -1 for any other key.
std::int64_t row_of_value_key(const TensorDecl& t, const std::string& key);

// The Case parameter of row b's length of ragged extent `e` (ExtentDecl::ragged): "<name>.<b>".
inline std::string ragged_key(const ExtentDecl& e, std::int64_t b) { return e.name + "." + std::to_string(b); }
// The row b of a key "<name>.<b>" of ragged extent `e`, or -1 for any other key (or an `e` not ragged).
std::int64_t row_of_ragged_key(const ExtentDecl& e, const std::string& key);

// A scalar parameter: a float32 value drawn from `values` (the first is where shrinking goes).
struct ParamDecl {
  std::string name;
  std::vector<double> values = {};
  double min = 0.0, max = 0.0;  // the contract: values in [min, max]
};

struct OpDecl {
  std::string name;              // the family's name, e.g. "rms_norm"
  std::string description = {};  // one line, with the formula
  std::vector<ExtentDecl> extents;
  std::vector<TensorDecl> inputs = {}, outputs = {};
  std::vector<ParamDecl> params = {};
  // The dtypes each dtype group may take: bf16, f16, f32 (f64 is accepted by the API; a
  // subject in f64 needs an oracle beyond double, ops/README.md). An f16 output is rounded once
  // more at u = 2^-11 (a bf16 one at 2^-8) after the subject's precision. `dtypes` is every
  // group's list unless `group_dtypes` names the group with a list of its own (LoRA's float32
  // adapter beside its bf16 activations).
  std::vector<DType> dtypes = {DType::f32, DType::bf16};
  std::map<std::string, std::vector<DType>> group_dtypes = {};
  std::string row_extent = {};                    // indexes independent rows (batch invariance)
  std::vector<std::string> reduced_extents = {};  // reduced over by every output element
  // A case holds at most this many elements in its largest operand (with its extra batch row).
  std::int64_t max_elements = std::int64_t{1} << 20;
  // Optional: the op's work as a sum of product expressions over the extents (attention's
  // "B*H*S*S*D", a GEMM's "T*N*K", LoRA's "T*K*N + T*K*r + T*N*r"); a case's work, with its extra batch row, is at most
  // max_work. For ops whose cost grows faster than their largest operand: it keeps every case,
  // and the reference's Bounded and MPFR evaluations of it, bounded in time. "" is no limit.
  std::string work = "";
  std::int64_t max_work = std::int64_t{1} << 30;
  // The caps of a reach case (op_cases.hpp), in the same terms: its largest operand and its work,
  // each with the extra batch row; 0 means max_elements and max_work. A reach case costs the
  // subject more but the oracle no more: forward_accuracy checks the rows that fit max_work and
  // max_elements (op_checks.hpp). A run may raise them (OpFamily::extent_caps: --max
  // reach_work=N), up to kElementsLimit and kWorkLimit, which the contract (check_contract) admits.
  std::int64_t reach_elements = 0;
  std::int64_t reach_work = 0;
  // Optional: the default case count of oracle_agreement, the self-check of the op's float64
  // reference against its MPFR evaluation, for an op whose MPFR evaluation costs far more a case
  // than a property's run (attention's: a softmax and two S x D products a row, in MPFR); 0 is the
  // op families' count. $PARITY_CASES overrides it as it overrides every count.
  int oracle_cases = 0;

  const ExtentDecl& extent(const std::string& name) const;
  const TensorDecl& tensor(const std::string& name) const;  // an input or an output
  const ParamDecl& param(const std::string& name) const;
  // The dtypes dtype group `group` may take (group_dtypes', else dtypes).
  const std::vector<DType>& dtypes_of(const std::string& group) const;
  bool has_rows(const TensorDecl& t) const { return !t.shape.empty() && t.shape.front() == row_extent; }
};

// The caps of a reach case: reach_elements and reach_work, or the ordinary caps where they are 0.
inline std::int64_t reach_elements_of(const OpDecl& d) {
  return d.reach_elements == 0 ? d.max_elements : d.reach_elements;
}
inline std::int64_t reach_work_of(const OpDecl& d) { return d.reach_work == 0 ? d.max_work : d.reach_work; }
// The contract's limits on a Case of any op (check_contract), with its extra batch row: its largest
// operand (2^26 elements, 256 MiB of float32) and its work (2^40, about half an hour of a host
// twin's multiply-adds on one core); a run's reach caps are at most these.
inline constexpr std::int64_t kElementsLimit = std::int64_t{1} << 26;
inline constexpr std::int64_t kWorkLimit = std::int64_t{1} << 40;
// The names under which a run caps its reach cases' largest operand and work, beside the extents
// (`--max reach_elements=N,reach_work=N`, $PARITY_MAX_REACH_WORK): no extent may take them.
inline constexpr const char* kReachElementsCap = "reach_elements";
inline constexpr const char* kReachWorkCap = "reach_work";
// Whether a reach case of `d` may be larger than an ordinary one: some extent's reach above its
// max, or a reach cap above the ordinary one. Only then does the generator draw reach cases.
bool has_reach(const OpDecl& d);
// `d` with every reach at its max and the reach caps at the ordinary ones: its generator draws
// no reach case (oracle_agreement's, whose MPFR evaluation costs too much at the reach sizes).
OpDecl without_reach(OpDecl d);

// Whether input `t` is present under a case's parameters (TensorDecl::present_if).
inline bool is_present(const TensorDecl& t, const std::map<std::string, double>& params) {
  if (t.present_if.empty()) return true;
  const auto it = params.find(t.present_if);
  return it != params.end() && it->second != 0;
}

// The value of a shape expression under `extents`; throws InputError naming the expression
// for an unknown name or a malformed term.
std::int64_t eval_extent_expr(const std::string& expr, const std::map<std::string, std::int64_t>& extents);
std::vector<std::int64_t> eval_shape(const TensorDecl& t, const std::map<std::string, std::int64_t>& extents);
// The number of elements of a shape (1 for rank 0).
std::int64_t elements_of(const std::vector<std::int64_t>& shape);
// The shape of a subject's tensor of `t`: its dims where it declares them, else its shape.
std::vector<std::int64_t> eval_subject_shape(const TensorDecl& t, const std::map<std::string, std::int64_t>& extents);
// Real elements (ExtentDecl::ragged): an element of t's matrix (eval_shape in `extents`) is real
// where it lies at a position s < L_b of row b's ragged extent, `lengths` holding each ragged
// extent's lengths, one a row; every element of an operand that holds no ragged extent is real.
// The ragged extent is the second of t's dims, so row b's real elements are the first
// real_width(.., b) of its row and the rest of it is padding.
using RaggedLengths = std::map<std::string, std::vector<std::int64_t>>;
// The ragged extent whose positions t's dims' second runs along, or nullptr.
const ExtentDecl* ragged_extent_of(const OpDecl& decl, const TensorDecl& t);
// The real elements of row `row` of t's matrix (its whole width for t without a ragged extent).
std::int64_t real_width(const OpDecl& decl, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                        const RaggedLengths& lengths, std::int64_t row);
// How many elements of t's matrix are real.
std::int64_t real_elements_of(const OpDecl& decl, const TensorDecl& t,
                              const std::map<std::string, std::int64_t>& extents, const RaggedLengths& lengths);
// The index in t's matrix of its k-th real element, k in [0, real_elements_of).
std::int64_t real_element(const OpDecl& decl, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                          const RaggedLengths& lengths, std::int64_t k);
// Whether element `index` of t's matrix (in [0, its elements)) is real.
bool is_real_element(const OpDecl& decl, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                     const RaggedLengths& lengths, std::int64_t index);
// Whether parameter `param` only orders the dims of some operand's matrix (TensorDecl::order_param):
// a subject sees its effect in the strides of its tensors.
bool orders_dims(const OpDecl& decl, const std::string& param);

// The work of `extents` under the declaration (1 where it declares none).
std::int64_t work_of(const OpDecl& decl, const std::map<std::string, std::int64_t>& extents);

// Throws std::logic_error naming the declaration's fault: a shape or work naming an unknown extent, a
// row extent that no always-present input leads with, duplicate names, an empty parameter list
// of values, a present_if on an output or naming no parameter, dims that do not split a 2-D shape
// (a first dim other than shape's, a product other than its second), orders that are not
// permutations of the dims after the first, an order_param whose values are not 0 .. orders - 1,
// a per-row input (values) that is not an always-present f32 [row extent] input or declares
// more than one scale, a reach outside [max, limit] or a reach cap below its ordinary cap, or a
// ragged extent (ExtentDecl::ragged) that is the row extent, has min 0, shares its name with a
// per-row input, or lies in an operand other than as the second of its dims after the row extent.
void validate(const OpDecl& decl);

}  // namespace parity::ops
