#pragma once
// Materialises a LoRA Case into subject inputs, bit for bit the same on every machine.
//
// Case fields used: dims T, N, K, r (each >= 1); layouts of x, W, A, B, dy; probe_row in
// [0, T); params alpha (scale s = float(alpha) / float(r); default alpha = r), b_zero
// (1: B = 0, the adapter's initial state; 0 or absent: B drawn); patches on x, W, A, B, dy.
// params other_rows (an integer in [1, 2^20]) and checked_outputs (an integer in [1, 2^40]) are
// read by no property since the generic ones became the ops': accepted, so that older
// reproducers of the family's own properties replay.
// Anything else (another param, a mode or ablations) is refused, as is an alpha beyond float32.
// Limits, checked before anything is allocated: T K (N + r) + T N r <= 2^33 multiply-adds and
// the operands as laid out at most 2^30 bytes (core/limits.hpp).
//
// Draws (Philox streams, element index = logical row-major index):
//   x  : row t != probe_row from stream 1 at index t*K + k; the probe row from stream 2 at k,
//        so moving the probe row keeps its content;   N(0, 1)
//   W  : stream 3, N(0, 1/K);  A: stream 4, N(0, 1/K);  B: stream 5, N(0, 1/r)
//   dy : like x, streams 6 (other rows) and 7 (probe row);   N(0, 1)
// Each draw is rounded to the operand's dtype (bf16: round to nearest even). A patch holds
// float32 bits, converted to the operand's dtype as a cast at the boundary would (bf16 RNE),
// so a float32 that straddles a bf16 rounding boundary is a patch like any other.
#include <vector>

#include <parity/core/case.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::properties::lora {

// The contract's limits: every extent at most 2^20, one forward at most 2^33 multiply-adds.
inline constexpr std::int64_t kMaxExtent = std::int64_t{1} << 20, kMaxWork = std::int64_t{1} << 33;

struct LoraProblem {
  subjects::LoraInputs in;
  Tensor dy;  // [T, N] bf16, under the case's "dy" layout
};

// The family's contract, checked in this one place: throws InputError naming the field for a
// Case that cannot describe a LoRA problem (a field above, an extent outside [1, 2^20], more
// than 2^33 multiply-adds, an index outside its operand). Every generated LoRA Case satisfies
// it; materialise checks it first.
void check_contract(const Case& c);

// Elements of `operand` (x, W, A, B, dy) at these extents.
std::int64_t operand_size(const std::string& operand, std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r);

// Throws InputError naming the field for a Case outside the contract.
LoraProblem materialise(const Case& c);

// Operand names a LoRA case may patch or lay out.
bool is_lora_operand(const std::string& name);

}  // namespace parity::properties::lora
