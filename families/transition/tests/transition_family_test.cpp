// The transition family above its ops: a Case of the family's former format is refused naming
// case.dims and what replaces it; the family's subjects are transition_step's but the batch probes;
// a property that scores runs the subject's transition_score kernel (probe-score-ignores-prev,
// which scores its own mean, fails scoring_reproduces_sampling; a subject with no scoring kernel
// of that name, step-only-host here, is not applicable); the gate runs both ops' checks of a row's combined field.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/families/transition/transition_family.hpp>
#include <parity/families/transition/transition_gate.hpp>
#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/properties/gen/run_property.hpp>
#include <parity/properties/tests/holds_text.hpp>

namespace parity::transition {
namespace {

// A subject of transition_step with no kernel of transition_score: parity's host twin, sampling only.
PARITY_REGISTER_OP_SUBJECT(
    step_only_host, "transition_step",
    ops::OpSubjectInfo{.name = "step-only-host",
                       .backend = "host",
                       .kind = subjects::SubjectKind::probe,
                       .description = "parity's host twin of transition_step, with no transition_score kernel",
                       .make = &ops::make_op_subject<ops::transition_step::StepHost<ops::transition_step::Standard>>})

// B rows of n elements from sigma = 1 down by 0.25.
Case rows_case(std::int64_t B, std::int64_t n) {
  std::vector<double> sigmas;
  for (std::int64_t b = 0; b < B; ++b) sigmas.push_back(1.0 - 0.25 * static_cast<double>(b));
  Case c = family_case(sigmas, n, 0.1);
  c.seed = 5;
  return c;
}

TEST(TransitionFamily, RefusesACaseOfItsFormerFormatNamingWhatReplacesIt) {
  Case old;
  old.family = "transition";
  old.dims = {{"B", 1}, {"tokens", 1}, {"channels", 1}};
  old.params = {{"sigma.0", 0.5}, {"sigma_prev.0", 0.25}};
  const std::string what = input_error_message([&] { transition_family().rules().check_contract(old); },
                                               "a former-format case passed the contract");
  EXPECT_TRUE(what.starts_with("case.dims: a transition case of the family's former format")) << what;
  EXPECT_TRUE(holds_text(what, "parity check transition")) << what;
  EXPECT_THROW(transition_family().case_tensors(old), InputError);
  EXPECT_NO_THROW(transition_family().rules().check_contract(rows_case(2, 8)));
}

TEST(TransitionFamily, ItsSubjectsAreTheStepsButTheBatchProbes) {
  std::set<std::string> step;
  for (const auto& s : ops::find_op_family("transition_step").infos()) step.insert(s.name);
  std::set<std::string> family;
  for (const auto& s : transition_family().subjects()) family.insert(s.name);
  for (const auto& name : family) EXPECT_TRUE(step.contains(name)) << name;
  EXPECT_FALSE(family.contains("probe-tree-reduction-above-8-rows"));
  EXPECT_FALSE(family.contains("probe-batch-dependent-reduction"));
  EXPECT_TRUE(family.contains("parity-host"));
  EXPECT_TRUE(family.contains("probe-no-sqrt-dt"));
}

TEST(TransitionFamily, ScoringRunsTheSubjectsScoringKernel) {
  const Case c = rows_case(3, 300);
  EXPECT_TRUE(transition_family().check("parity-host", "scoring_reproduces_sampling", c).holds());
  // transition_score's probe-score-ignores-prev with parity's sampling: the scored log-prob is
  // that of a zero noise.
  const auto sampling = ops::find_op_family("transition_step").runnable("parity-host").make();
  const auto scoring = ops::find_op_family("transition_score").runnable("probe-score-ignores-prev").make();
  EXPECT_TRUE(check_scoring_reproduces_sampling(row_call(c), *sampling, scoring.get()).fails());
}

TEST(TransitionFamily, AScoringPropertyIsNotApplicableToASubjectWithoutAScoringKernel) {
  const Case c = rows_case(2, 8);
  EXPECT_TRUE(transition_family().check("step-only-host", "matches_formula", c).holds());
  EXPECT_THROW(transition_family().check("step-only-host", "scoring_reproduces_sampling", c), NotApplicable);
  const gen::RunConfig config{.cases = 2};
  const gen::RunResult r = transition_family().run("step-only-host", "scoring_reproduces_sampling", config);
  EXPECT_EQ(r.not_applicable, "the subject has no kernel of transition_score");
  EXPECT_EQ(r.cases, 0);
}

// The gate runs both ops' checks of a row's combined field: transition_score's rows_independent
// and forward_accuracy are run, logged and listed even where transition_step's fail.
TEST(TransitionGate, RunsBothOpsChecksWhenTheStepsFail) {
  std::ostringstream log;
  const auto gate = run_transition_gate("probe-mean-over-batch", true, &log);
  ASSERT_EQ(gate.rows.size(), 1u);
  for (const char* line : {"transition_step.rows_independent: fails",
                           "transition_score.rows_independent: ", "transition_score.forward_accuracy: "})
    EXPECT_TRUE(holds_text(log.str(), line)) << log.str();
  EXPECT_FALSE(gate.rows[0]["batch_invariant"].get<bool>());
}

}  // namespace
}  // namespace parity::transition
