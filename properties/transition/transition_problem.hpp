#pragma once
// Materialises a transition Case into subject inputs, bit for bit the same on every machine.
//
// Case fields: dims B, tokens, channels (each >= 1; a row holds n = tokens x channels
// elements); probe_row in [0, B); layouts of x, v, eps; params:
//   sigma.<b>, sigma_prev.<b>  the row's schedule values (float32; 0 <= sigma_prev < sigma <= 1)
//   sigma_max                  sigmas[1] of the schedule, used where sigma == 1 (default 0.995)
//   noise_level                a (default 0.7)
//   cps                        non-zero: the cps step (default sde)
//   normaliser                 zero: drop the log-prob normaliser (default 1)
//   bf16_inputs                non-zero: x and v arrive in bf16 (default float32)
//   other_rows                 an integer in [1, kMaxB], read by nothing since batch_vs_batch
//                              became the ops': accepted so that older reproducers parse, and
//                              outside the limits (it allocates nothing)
// Switches (cps, normaliser, bf16_inputs) are 0 or 1; any other parameter, a mode or ablations
// are refused. Limits, checked before anything is allocated: B x tokens x channels <= 2^24 and
// x, v, eps as laid out at most 2^30 bytes (core/limits.hpp).
// Draws, N(0, 1), Philox streams by operand: x 1 (probe row 2), v 3 (4), eps 5 (6); element
// index = row-major logical index (for the probe row: its column), so moving the probe row
// keeps its content. Patches hold float32 bits on x, v or eps, converted to the operand's dtype
// (bf16: round to nearest even, the cast at the step's input).
#include <vector>

#include <parity/core/case.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::properties::transition {

struct TransitionProblem {
  subjects::TransitionInputs in;
};

// The family's limits: B <= 8192, tokens <= 2^20, channels <= 2^12, tokens x channels <= 2^22.
inline constexpr std::int64_t kMaxB = 8192, kMaxTokens = std::int64_t{1} << 20, kMaxChannels = std::int64_t{1} << 12,
                              kMaxRowElements = std::int64_t{1} << 22, kMaxElements = std::int64_t{1} << 24;

// The family's contract, checked in this one place: throws InputError naming the field for a
// Case that cannot describe a step (a field above, a limit, an index outside its operand).
// Every generated transition Case satisfies it; materialise checks it first.
void check_contract(const Case& c);

// Throws InputError naming the field for a Case outside the contract.
TransitionProblem materialise(const Case& c);

bool is_transition_operand(const std::string& name);

}  // namespace parity::properties::transition
