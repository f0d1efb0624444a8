#pragma once
// The LoRA family behind the generic Family interface: its own properties (lora_properties.hpp)
// over lora_backward's generated cases. A subject of the family is a subject of lora_backward
// (parity's kernel, LibTorch's autograd, a program's; not the op's mismatch probes, which the
// generic properties catch) run with, where base_frozen runs a forward, its kernel of lora_forward
// under the same name; and the family's own probes (lora_family_probes.hpp).
// The family's Case is a lora_backward Case (dims T, N, K, r; params scale, dtype.act,
// dtype.adapter; layouts and patches of x, W, A, B, dy) whose family is "lora".
#include <parity/core/case.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::properties::lora {

const gen::Family& lora_family();

// `c` (a family case) as lora_backward reads it: its family lora_backward.
Case backward_case(Case c);

// Throws InputError naming case.params for a Case of the family's former format (params alpha,
// b_zero, other_rows or checked_outputs; no scale, dtype.act or dtype.adapter), which no parity of
// this version reads, and says what replaces it; returns otherwise. The family's contract
// (rules().check_contract) applies it first, so `parity replay` of such a reproducer exits 2.
void refuse_former_case_format(const Case& c);

}  // namespace parity::properties::lora
