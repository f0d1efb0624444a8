// The lora_forward op family: its declaration and reference (lora_forward_op.hpp) instantiated,
// its subjects those of the LoRA family (lora_subject_op.hpp).
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/lora_forward/lora_forward_op.hpp>
#include <parity/ops/lora_forward/lora_subject_op.hpp>

namespace parity::ops::lora_forward {

const gen::Family& family() {
  static const OpFamily f(define_op<LoraForward>(), &register_lora_subjects);
  return f;
}

}  // namespace parity::ops::lora_forward
