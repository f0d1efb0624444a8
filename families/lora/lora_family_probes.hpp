#pragma once
// The LoRA family's own mismatch probes: parity's host twin of lora_backward (ops/lora_forward/
// lora_host.hpp) with a fault only the family's properties show (`parity probes lora`), so
// subjects of the family but of no op: probe-base-gradient (a dW beside dx, dA and dB, which
// lora_backward does not declare: base_frozen) and probe-skips-adapter-backward-at-zero-B (dA =
// dB = 0 where B is all zero, which lora_backward's generated cases do not draw:
// zero_adapter_gradients).
#include <vector>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::properties::lora {

// Both, in that order, as subjects of lora_backward (kind probe, backend host).
const std::vector<ops::OpSubjectInfo>& family_probes();

}  // namespace parity::properties::lora
