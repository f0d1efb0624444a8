#pragma once
// The transition family behind the generic Family interface: its own properties
// (transition_properties.hpp) over transition_step's generated cases. A subject of the family is a
// subject of transition_step (parity's kernel, LibTorch's references, a program's, the probes but
// the two whose fault only a batch property shows, which are the ops' alone) run with, for the
// properties that score, its kernel of transition_score under the same name.
// The family's Case is a transition_step Case (ops/transition_step/transition_step_op.hpp: dims B
// and n, each row's sigma.<b>, the step's parameters, dtype.act) whose family is "transition".
#include <parity/core/case.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::transition {

const gen::Family& transition_family();

// Throws InputError naming case.dims for a Case of the family's former format (dims B, tokens
// and channels, a sigma_prev.<b> per row, drawn by a generator of its own), which no parity of
// this version reads, and says what replaces it; returns otherwise. The family's contract
// (rules().check_contract) applies it first, so `parity replay` of such a reproducer exits 2.
void refuse_former_case_format(const Case& c);

}  // namespace parity::transition
