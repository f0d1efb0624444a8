#pragma once
// The transition family's own properties: those that relate the ops' two entry points or compare a
// kernel with parity's evaluation of the formula (transition_formula.hpp). A subject of the family
// is a kernel of transition_step (sampling) and, under the same name, of transition_score
// (scoring); the generic properties (batch invariance, layouts, accuracy against the exact step,
// the oracles' self-check, cross_backend_bitwise) are those ops'.
// "The LibTorch formula" is the torch-cpu subject (Flow-GRPO's code in ATen ops); "the second
// formulation" is torch-second-cpu.
#include <string>
#include <vector>

#include <parity/core/verdict.hpp>
#include <parity/families/transition/transition_cases.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::transition {

struct TransitionProperty {
  std::string name;
  std::string description;  // the claim, one line
  bool scores = false;      // needs the subject's scoring kernel (not applicable without one)
  // `call` is a call of transition_step with each row's step (transition_cases.hpp); `score` the
  // subject's kernel of transition_score, null where the property does not score.
  Verdict (*check)(const RowCall& call, ops::OpSubject& step, ops::OpSubject* score);
};

// matches_formula: prev, mean and std bitwise equal to Flow-GRPO's formula with every operation
// rounded once to float32, as parity evaluates it. LibTorch's own formula is a reference subject:
// its differences are findings.
Verdict check_matches_formula(const RowCall& call, ops::OpSubject& step, ops::OpSubject* score);
// logp_vs_formula: |logp - logp_formula| within the sum of both evaluations' derived bounds (the
// subject's declared arithmetic; the formula's ascending-order sum, any order covers it, and its
// double log rounded to float32). Metrics: logp_max_rel_diff_vs_formula, bound_utilisation.
Verdict check_logp_vs_formula(const RowCall& call, ops::OpSubject& step, ops::OpSubject* score);
// scoring_reproduces_sampling: transition_score of the sampled prev equals the log-prob
// transition_step emitted, bitwise.
Verdict check_scoring_reproduces_sampling(const RowCall& call, ops::OpSubject& step, ops::OpSubject* score);
// second_formulation_agrees: the second formulation's (parity's evaluation, normaliser
// 0.5 log(2 pi) in double) mean is the subject's bitwise, and its logp lies within both
// evaluations' bounds. Metrics: second_mean_bitwise, second_logp_max_rel_diff, bound_utilisation.
Verdict check_second_formulation_agrees(const RowCall& call, ops::OpSubject& step, ops::OpSubject* score);

const std::vector<TransitionProperty>& transition_properties();
// The property `name`; InputError listing the known ones, or as refuse_moved_property.
const TransitionProperty& find_transition_property(const std::string& name);
// Throws InputError for a property the ops have (batch_invariant, batch_vs_batch, accuracy,
// oracle_agreement, cross_backend_bitwise), naming the op property and the `parity check` command
// that runs it: `parity check transition` refuses it, and so does `parity replay` of a reproducer of it.
void refuse_moved_property(const std::string& name);

}  // namespace parity::transition
