// The transition_step op family: its declaration and reference (transition_step_op.hpp)
// instantiated, its subjects those of the transition family (transition_subject_op.hpp).
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/ops/transition_step/transition_subject_op.hpp>

namespace parity::ops::transition_step {

const gen::Family& family() {
  static const OpFamily f(define_op<TransitionStep>(), &register_transition_subjects);
  return f;
}

}  // namespace parity::ops::transition_step
