#pragma once
// The LoRA family's properties: check functions Case x subject -> Verdict, plain C++. The same
// functions serve RapidCheck (properties/gen), libFuzzer (fuzz/), the gate and replay.
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::properties::lora {

using subjects::LoraSubject;

struct LoraProperty {
  std::string name;
  std::string description;    // the claim, one line
  bool needs_subject = true;  // false: a check of parity's own oracles
  Verdict (*check)(const Case&, LoraSubject*);
  // What `check` needs of a subject; a subject lacking it gets the property reported as not
  // applicable. needs.backward is false for a property that also judges forward-only subjects.
  subjects::CapabilityNeeds needs = {};
  // The same claim on forward alone, run instead of `check` on a subject without backward
  // (capabilities.backward false); null when `check` calls forward only, or needs.backward.
  Verdict (*check_forward)(const Case&, LoraSubject*) = nullptr;

  // The check to run on a subject with `caps` (to which the property applies).
  auto check_for(const subjects::SubjectCapabilities& caps) const {
    return !caps.backward && check_forward ? check_forward : check;
  }
};

// repeatable: forward and backward twice on fresh copies of the inputs give the same bits.
// _forward: forward alone (y), for a subject without backward.
Verdict check_repeatable(const Case& c, LoraSubject* s);
Verdict check_repeatable_forward(const Case& c, LoraSubject* s);
// rows_independent: row probe_row of a batched call equals the single-row call bitwise
// (y and dx); discarded unless the batch holds other rows of x and of dy that differ from the
// probe row's, or when the probe row's outputs are all NaN. _forward: y alone, and x's rows
// alone must differ.
Verdict check_rows_independent(const Case& c, LoraSubject* s);
Verdict check_rows_independent_forward(const Case& c, LoraSubject* s);
// batch_vs_batch: row probe_row is the same bits (y and dx) in a batch of T rows and in one of
// other_rows rows (lora_problem.hpp's with_rows: the shared rows are the same), both above one: a
// plan chosen from the total row count (a split-K from 128 rows, another tile above 64) shows
// even where the single-row path happens to agree. Discarded when either batch has one row, both
// are the same size, the probe row is past the smaller, the smaller holds no other row of x and
// of dy that differs from the probe row's, or the probe row's outputs are all NaN. _forward: y
// alone. Metrics: rows, other_rows.
Verdict check_batch_vs_batch(const Case& c, LoraSubject* s);
Verdict check_batch_vs_batch_forward(const Case& c, LoraSubject* s);
// layout_invariant: the case's layouts give the same bits as contiguous operands (y, dx, dA,
// dB); discarded when every layout is contiguous. _forward: y alone.
Verdict check_layout_invariant(const Case& c, LoraSubject* s);
Verdict check_layout_invariant_forward(const Case& c, LoraSubject* s);
// base_frozen: no gradient for W, and W's storage (padding included) is untouched. The
// storage half sees writes into the caller's buffer only; subjects that copy W to a device
// are covered by the dW half.
Verdict check_base_frozen(const Case& c, LoraSubject* s);
// zero_adapter_gradients: with B = 0 (the adapter's initial state) and finite x and dy, dA is
// exactly zero, and dB is not wherever the oracle's dB exceeds its error bound. Elements where
// some permitted evaluation order may overflow (error_bounds.hpp) are exempt, counted in the
// detail and in the metrics grad_a_exempt, grad_b_exempt, with the first one's reason.
Verdict check_zero_adapter_gradients(const Case& c, LoraSubject* s);
// forward_accuracy: every y element within its derived bound (error_bounds.hpp) plus the fast
// accurate oracle's stated error of the oracle's value; discarded when the oracle's error is
// a large share of the bound ("the oracle is not sure"). Metrics: bound_utilisation,
// oracle_err_utilisation, rel_err_vs_fp64 (norm-wise).
Verdict check_forward_accuracy(const Case& c, LoraSubject* s);
// gradient_accuracy: dx, dA, dB within their derived bounds. Metrics per gradient. The bounds
// and overflow exemptions hold for every evaluation order the interface permits (scale first,
// as autograd does, included); forward_accuracy's too. An exempt element (infinite bound) is
// counted in the detail with its reason and in the metric <prefix>exempt.
Verdict check_gradient_accuracy(const Case& c, LoraSubject* s);
// oracle_agreement: the fast accurate oracle within both oracles' stated errors of the
// multiprecision (133-bit) oracle on sampled elements of y, dx, dA, dB. Needs no subject.
Verdict check_oracle_agreement(const Case& c, LoraSubject* s);

const std::vector<LoraProperty>& lora_properties();
// Throws InputError listing the known names.
const LoraProperty& find_lora_property(const std::string& name);

}  // namespace parity::properties::lora
