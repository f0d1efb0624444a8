// The transition_step and transition_score op families: their declarations and references
// (transition_step_op.hpp) instantiated, their subjects those of the transition family
// (transition_subject_op.hpp).
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/ops/transition_step/transition_subject_op.hpp>

namespace parity::ops::transition_step {

const gen::Family& family() {
  static const OpFamily f(define_op<TransitionStep>(), &register_transition_subjects);
  return f;
}

const gen::Family& score_family() {
  static const OpFamily f(define_op<TransitionScore>(), &register_transition_score_subjects);
  return f;
}

}  // namespace parity::ops::transition_step
