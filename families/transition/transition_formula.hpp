#pragma once
// parity's own evaluation of Flow-GRPO's transition formula (ops/transition_step/transition_step_op.hpp),
// operation for operation as the Python code writes it, each operation rounded once to float32.
// It is the reference the transition family's properties compare a subject's bits against, in
// place of LibTorch: LibTorch's own elementwise operators are not all correctly rounded (torch
// 2.11's CPU float32 sqrt, MKL's vector math, returns 0x3fe5aaae for sqrt(0x404e0ace), whose
// correctly rounded value is 0x3fe5aaaf), so its bits are a finding, never the yardstick.
//
// Every + - * / and sqrt is evaluated in double on float32 operands and rounded to float32.
// That is the correctly rounded float32 result: double rounding through a format of
// p' >= 2p + 2 bits (53 >= 2 * 24 + 2) is innocuous for these five operations (S. A. Figueroa,
// "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995). So this evaluation does
// not share code or hardware float32 paths with parity's kernel, yet must agree with any
// kernel that rounds each operation once, in the formula's order. The logs are a double log
// rounded to float32; the row mean adds the terms in ascending order in float32 and divides by n
// (a depth any_order_depth(n) covers).
#include <parity/families/transition/transition_cases.hpp>

namespace parity::transition {

// Flow-GRPO's log-prob (-log(sqrt(2 pi)) from float32 pi) or the second formulation's
// (-0.5 log(2 pi) in double, rounded to float32 by the subtraction).
enum class Formulation { flow_grpo, second };

// The outputs of transition_step (prev, mean, std, logp) for `call`, a call of transition_step:
// each row at its sigma, sigma_prev = sigma_prev_of(sigma, its step).
ops::OpOutputs formula_sample(const RowCall& call, Formulation f);

}  // namespace parity::transition
