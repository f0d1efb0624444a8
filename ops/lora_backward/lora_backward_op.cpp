// The lora_backward op family: its declaration and reference (lora_backward_op.hpp) instantiated,
// its subjects the LoRA family's that compute a backward (lora_backward_subjects.hpp).
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/lora_backward/lora_backward_op.hpp>
#include <parity/ops/lora_backward/lora_backward_subjects.hpp>

namespace parity::ops::lora_backward {

const gen::Family& family() {
  static const OpFamily f(define_op<LoraBackward>(), &register_lora_backward_subjects);
  return f;
}

}  // namespace parity::ops::lora_backward
