#pragma once
// The transition family's own cases: transition_step's (the op's contract: sigma in [0.2, 1], one
// step for every row, so sigma_prev >= 0.075) and, one case in two, the schedule's corners the
// op's generic properties leave out, each row at its own (sigma, sigma_prev): sigma near 0 (1e-3,
// 1e-4) or one float step below 1 (1 - 2^-24, where sigma_max does not enter) and sigma_prev 0
// (a schedule's last step), one float step below sigma, or a fraction of sigma. Such a case holds
// "sigma_prev.<b>" for every row b; a row's step is then the one that lands on its sigma_prev,
// step_b = sigma_b - sigma_prev_b in double (float32(sigma_b - step_b) == sigma_prev_b, which the
// contract checks), and a subject (which steps every row of a call by one `step`) runs once per
// distinct step, each row's outputs taken from the run at its own step (RowCall).
#include <functional>
#include <vector>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/properties/gen/case_rules.hpp>

namespace parity::transition {

// transition_step's declaration with sigma's contract widened to [kMinSigma, 1], the contract of
// a family case's sigma.<b> (its generator still draws the op's sigmas, then the corners).
inline constexpr double kMinSigma = 0x1p-20;
const ops::OpDecl& family_decl();

// A call of transition_step with each row's own step: steps[b] is row b's (call.param("step")
// where the case holds no sigma_prev.<b>). The family's properties read a row's sigma_prev as
// sigma_prev_of(sigma_b, steps[b]).
struct RowCall {
  ops::OpCall call;
  std::vector<double> steps = {};
};

// `call` with every row at its step.
RowCall one_step(ops::OpCall call);

// The family's cases (family "transition") from transition_step's `op` (its extents capped as the
// run resolved them): op_case(op), then one in two with every row at a corner.
rc::Gen<Case> family_cases(const ops::OpDef& op, bool strided_layouts);
// The rules of a family case: transition_step's contract (family_decl's) on the case without its
// sigma_prev.<b>; either none or one for every row, each in [0, sigma_b] and reached by a step
// (InputError naming case.params.sigma_prev.<b>).
const gen::CaseRules& family_rules();
// `c` (a family case) as transition_step reads it: its family transition_step, no sigma_prev.<b>.
Case step_case(Case c);
// The call of family case `c` (its inputs in the case's layouts) with each row's step.
RowCall row_call(const Case& c);

// A family case of float32 rows of n elements, row b at sigma.<b> = sigmas[b] (as float32): sde
// (type 0) with `step`, sigma_max 0.98, noise_level 0.7, the normaliser on; seed 1, probe row 0.
// Tests and fuzz seeds start from it and set what they vary.
Case family_case(const std::vector<double>& sigmas, std::int64_t n, double step);

// Row b's step from sigma to sigma_prev (float32 values): sigma - sigma_prev in double.
double step_to(float sigma, float sigma_prev);

// The subject's outputs (`run` of a call of transition_step or transition_score) for `rc`: one
// run per distinct step, every output led by B taking row b from the run at steps[b].
ops::OpOutputs per_step(const RowCall& rc, const std::function<ops::OpOutputs(const ops::OpCall&)>& run);

}  // namespace parity::transition
