#pragma once
// The transition family's properties: check functions Case x subject -> Verdict, plain C++.
// "The LibTorch formula" is the torch-cpu subject (Flow-GRPO's code in ATen ops); "the
// second formulation" is torch-second-cpu.
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::properties::transition {

using subjects::TransitionSubject;

struct TransitionProperty {
  std::string name;
  std::string description;
  bool needs_subject = true;
  Verdict (*check)(const Case&, TransitionSubject*);
  // What `check` needs of a subject; a subject lacking it gets the property reported as not
  // applicable.
  subjects::CapabilityNeeds needs = {};

  // The check to run on a subject with `caps` (to which the property applies): `check` always.
  auto check_for(const subjects::SubjectCapabilities&) const { return check; }
};

// matches_formula: prev_sample, mean and std bitwise equal to Flow-GRPO's formula with every
// operation rounded once to float32, as parity evaluates it (formula_reference.hpp). LibTorch's
// own formula is a reference subject: its differences are findings.
Verdict check_matches_formula(const Case& c, TransitionSubject* s);
// logp_vs_formula: |logp - logp_formula| within the sum of both evaluations' derived bounds
// (the subject's contract; the formula's ascending-order sum, any order covers it, and its
// double log rounded to float32). Metric: logp_max_rel_diff_vs_formula.
Verdict check_logp_vs_formula(const Case& c, TransitionSubject* s);
// batch_invariant: the probe row's prev, mean, std and logp (sampling and scoring) are the
// same bits alone and inside the batch; discarded unless another row differs.
Verdict check_batch_invariant(const Case& c, TransitionSubject* s);
// batch_vs_batch: the probe row's outputs (as batch_invariant) are the same bits in a batch of B
// rows and in one of other_rows rows (transition_problem.hpp's with_rows), both above one: a
// reduction planned from the batch size shows even where the single-row path agrees.
// Discarded when either batch has one row, both are the same size, the probe row is past the
// smaller, or the smaller holds no other row that differs. Metrics: rows, other_rows.
Verdict check_batch_vs_batch(const Case& c, TransitionSubject* s);
// scoring_reproduces_sampling: score(prev) equals the log-prob emitted by sample(), bitwise.
Verdict check_scoring_reproduces_sampling(const Case& c, TransitionSubject* s);
// accuracy: std, mean, prev and logp within their running-error bounds of the exact step
// (oracles/transition.hpp). Metrics: bound utilisations.
Verdict check_accuracy(const Case& c, TransitionSubject* s);
// second_formulation_agrees: the second formulation's (parity's evaluation, normaliser
// 0.5 log(2 pi) in double) mean is the subject's bitwise, and its logp lies within both
// evaluations' bounds. Metric: second_logp_max_rel_diff.
Verdict check_second_formulation_agrees(const Case& c, TransitionSubject* s);
// oracle_agreement: the float64 oracle agrees with the 133-bit one to 2^-20 of the float32
// bound it is used to judge (each row's log-prob, sampled means): its own rounding cannot move
// a verdict. Needs no subject.
Verdict check_oracle_agreement(const Case& c, TransitionSubject* s);

const std::vector<TransitionProperty>& transition_properties();
const TransitionProperty& find_transition_property(const std::string& name);

}  // namespace parity::properties::transition
