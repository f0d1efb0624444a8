#pragma once
// The op harness's byte format (fuzz/README.md, "Byte formats"): one format for every op
// family (ops/), derived from its declaration. Every byte string decodes to a Case the op
// accepts (check_contract), within a budget that keeps one check bounded: the largest operand
// holds at most kOpFuzzElements elements with its extra row (extents halved, the row extent
// first, as the generator does), 16 patches, 8 straddles.
//
//   offset  bytes   field
//   0       1       the op (op_fuzzer without $PARITY_FUZZ_OP: op_of_byte(b, the ops that
//                   have the subject): an op's slot names it, another byte the b % size-th;
//                   read and ignored here, where the op is given)
//   1       1       property: op_fuzz_properties(op, subject)[b % size]
//   2...    2 each  each extent, in declared order: b0 < 192: min + b1 % 16 (small); else a
//                   realistic size sizes[(b1 / 3) % count] + b1 % 3 - 1, sizes its declared
//                   thresholds and the powers of two from 16 up to its max; clamped to [min,
//                   max]; then fit to the budget
//   ...     1 each  each dtype group (in the order operands declare them): its dtypes[b % size] (OpDecl::dtypes_of)
//   ...     1 each  each parameter: values[b % size]
//   ...     1 each  each input with several scales: scales[b % size]
//   ...     1 each  each row of each input with a value per row: values[b % size]
//   ...     1 or 2  each row of each ragged extent: its length 1 + u % the extent, u a byte, or
//                   a u16 where the extent is over 256
//   ...     2       probe_row = u16 % rows
//   ...     1 each  each input's layout (fuzz_values.hpp; a 1-D input is never transposed; all
//                   contiguous for a subject without strided_layouts)
//   ...     8       seed, little-endian
//   ...     1       output-straddling patches on the probe row: b % 9 (ops/framework/op_straddle.hpp,
//                   within kOpFuzzStraddleBudget), placed after the patches below
//   ...     9 each  patches, at most 16: input b % inputs, index its (u24 % its real elements)-th
//                   real element (never a ragged extent's padding), value
//                   decode_float_bits (fuzz_values.hpp) rounded to the input's dtype
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

inline constexpr std::int64_t kOpFuzzElements = std::int64_t{1} << 15;
inline constexpr std::size_t kOpFuzzPatches = 16;
inline constexpr std::size_t kOpFuzzMaxBytes = 512;
// The straddle search's budget per input (op_straddle.hpp): a sixteenth of the generator's.
inline constexpr std::int64_t kOpFuzzStraddleBudget = std::int64_t{1} << 18;

// The op families, in ops::op_families() order.
const std::vector<std::string>& op_fuzz_ops();

// The op byte's mapping. Each op of op_fuzz_ops() holds one of the 256 byte values, its slot:
// the low byte of the FNV-1a hash of its name, or the next free value after it where an op
// earlier in op_fuzz_ops() holds that one. A byte that is the slot of one of `ops` names that op;
// any other byte names ops[b % size], so the ops share the bytes evenly. The seeds are written
// with their op's slot (op_slot), so they keep naming their ops when ops are added, unless a new
// op that sorts earlier takes a seed's slot; an input grown by fuzzing keeps its op only where
// its first byte is a slot. Throws std::logic_error for an empty `ops`.
std::uint8_t op_slot(const std::string& op);
const std::string& op_of_byte(std::uint8_t b, const std::vector<std::string>& ops);
// The subject-facing properties of `op` that apply to `subject` (repeatable, rows_independent,
// batch_vs_batch, layout_invariant with strided_layouts, forward_accuracy, cross_backend_bitwise
// with a host twin). Throws InputError for an unknown op or subject.
std::vector<std::string> op_fuzz_properties(const std::string& op, const std::string& subject);

// Decodes `bytes` for `op` and `subject`. Throws InputError only for an unknown op or subject,
// never for the bytes.
FuzzInput decode_op(std::span<const std::uint8_t> bytes, const std::string& op, const std::string& subject);

}  // namespace parity::fuzz
