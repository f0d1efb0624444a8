#pragma once
// The transition family's properties: check functions Case x subject -> Verdict, plain C++. Those
// that are the family's alone; the generic ones are the ops transition_step and transition_score's
// (ops/transition_step/).
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
// scoring_reproduces_sampling: score(prev) equals the log-prob emitted by sample(), bitwise.
Verdict check_scoring_reproduces_sampling(const Case& c, TransitionSubject* s);
// second_formulation_agrees: the second formulation's (parity's evaluation, normaliser
// 0.5 log(2 pi) in double) mean is the subject's bitwise, and its logp lies within both
// evaluations' bounds. Metric: second_logp_max_rel_diff.
Verdict check_second_formulation_agrees(const Case& c, TransitionSubject* s);
const std::vector<TransitionProperty>& transition_properties();
// The property `name`; InputError listing the known ones, or as refuse_moved_property.
const TransitionProperty& find_transition_property(const std::string& name);
// Throws InputError for a property the ops took (batch_invariant, batch_vs_batch, accuracy,
// oracle_agreement), naming the op property that replaces it and the `parity check` command that
// runs it (oracle_agreement's with --subject parity-oracles): `parity check transition` refuses it,
// and so does `parity replay` of a reproducer of it, which holds a transition Case the ops do not read.
void refuse_moved_property(const std::string& name);

}  // namespace parity::properties::transition
