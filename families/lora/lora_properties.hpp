#pragma once
// The LoRA family's properties: check functions Case x subject -> Verdict, plain C++. Those that
// are the family's alone (the frozen base and the adapter's gradients at its initial state); the
// generic ones (repeatable, rows_independent, batch_vs_batch, layout_invariant, forward and
// gradient accuracy, the oracles' self-check, cross_backend_bitwise) are the ops lora_forward's
// and lora_backward's (ops/lora_forward/, ops/lora_backward/), which every LoRA subject already is.
// They live in families/lora (parity_lora_family), above the ops: zero_adapter_gradients judges
// against lora_backward's reference. The namespace stays properties::lora, as families/model's
// properties are properties::model.
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
  // applicable.
  subjects::CapabilityNeeds needs = {};

  // The check to run on a subject with `caps` (to which the property applies): `check` always.
  auto check_for(const subjects::SubjectCapabilities&) const { return check; }
};

// base_frozen: no gradient for W, and W's storage (padding included) is untouched. The
// storage half sees writes into the caller's buffer only; subjects that copy W to a device
// are covered by the dW half.
Verdict check_base_frozen(const Case& c, LoraSubject* s);
// zero_adapter_gradients: with B = 0 (the adapter's initial state) and finite x and dy, dA is
// exactly zero, and dB is not wherever lora_backward's reference puts |dB| beyond twice its
// derived bound (ops/framework/bounded.hpp, under ops::lora_forward::kLoraSubjectArithmetic:
// float32, any order). Where some permitted evaluation order may overflow a non-finite value is
// accepted and a finite one checked (metrics grad_a_may_overflow, grad_b_may_overflow), elsewhere
// dA and dB must be finite; an element with a non-finite operand on its path is exempt
// (grad_a_exempt, grad_b_exempt); the detail names the first of each and why. A dA or dB of
// another shape than [r, K] and [N, r], or not float32, fails as an invalid output.
Verdict check_zero_adapter_gradients(const Case& c, LoraSubject* s);

const std::vector<LoraProperty>& lora_properties();
// The property `name`; InputError listing the known ones, or as refuse_moved_property.
const LoraProperty& find_lora_property(const std::string& name);
// Throws InputError for a property the ops took (repeatable, rows_independent, batch_vs_batch,
// layout_invariant, forward_accuracy, gradient_accuracy, oracle_agreement, cross_backend_bitwise),
// naming the op property that replaces it and the `parity check` command that runs it: `parity
// check lora` refuses it, and so does `parity replay` of a reproducer of it, which holds a LoRA
// Case the ops do not read.
void refuse_moved_property(const std::string& name);

}  // namespace parity::properties::lora
