#pragma once
// The LoRA family's own properties: check functions of a subject of lora_backward (and, under the
// same name, of lora_forward) on a case of lora_backward, plain C++. Those that are the family's
// alone: the frozen base and the adapter's gradients at its initial state. The generic ones
// (repeatable, rows_independent, batch_vs_batch, layout_invariant, forward and gradient accuracy,
// the oracles' self-check, cross_backend_bitwise) are the ops lora_forward's and lora_backward's.
#include <string>
#include <vector>

#include <parity/core/verdict.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::properties::lora {

struct LoraProperty {
  std::string name;
  std::string description;  // the claim, one line
  // `p`: a problem of lora_backward (the case materialised); `backward` the subject's kernel of
  // lora_backward, `forward` its kernel of lora_forward (the subject of that op of the same name),
  // null where it has none that runs here.
  Verdict (*check)(const ops::OpProblem& p, ops::OpSubject& backward, ops::OpSubject* forward);
};

// base_frozen: the frozen base weight W gets no gradient and its storage is untouched. The
// backward's outputs are exactly the declared dx, dA and dB: any other (a dW above all) fails,
// named. W's storage, padding included, is the same bytes after the backward, and after the
// forward where the subject has one (on the same operands); the storage half sees writes into the
// caller's buffer only, a subject that copies W to a device is covered by the outputs' half.
Verdict check_base_frozen(const ops::OpProblem& p, ops::OpSubject& backward, ops::OpSubject* forward);
// zero_adapter_gradients: with B = 0 (the adapter's initial state: every element of the case's B
// set to +0) and finite x and dy, dA is exactly zero, and dB is not wherever lora_backward's
// reference puts |dB| beyond twice its derived bound (ops/framework/bounded.hpp, under the
// subject's declared arithmetic). Where some permitted evaluation order may overflow a non-finite
// value is accepted and a finite one checked (metrics grad_a_may_overflow, grad_b_may_overflow),
// elsewhere dA and dB must be finite; an element with a non-finite operand on its path is exempt
// (grad_a_exempt, grad_b_exempt); the detail names the first of each and why. A dA or dB missing,
// of another shape than [r, K] and [N, r], or not float32, fails as an invalid output.
Verdict check_zero_adapter_gradients(const ops::OpProblem& p, ops::OpSubject& backward, ops::OpSubject* forward);

const std::vector<LoraProperty>& lora_properties();
// The property `name`; InputError listing the known ones, or as refuse_moved_property.
const LoraProperty& find_lora_property(const std::string& name);
// Throws InputError for a property the ops took (repeatable, rows_independent, batch_vs_batch,
// layout_invariant, forward_accuracy, gradient_accuracy, oracle_agreement, cross_backend_bitwise),
// naming the op property that replaces it and the `parity check` command that runs it: `parity
// check lora` refuses it, and so does `parity replay` of a reproducer of it.
void refuse_moved_property(const std::string& name);

}  // namespace parity::properties::lora
