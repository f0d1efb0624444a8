#pragma once
// A user's op family, declared in the user's own program: the declaration and reference of
// framework/op_reference.hpp (a struct with declaration() and reference(Eval<R>&)) made a family
// as parity's own ops are, with every property, generator, shrinking and reproducer they get:
//
//   struct ScaledAdd { static parity::ops::OpDecl declaration(); template <class R> static void reference(...); };
//   PARITY_REGISTER_OP(scaled_add, ScaledAdd, "my-scaled-add");   // the op, its default subject
//   PARITY_REGISTER_OP_SUBJECT(my_scaled_add, "scaled_add", parity::ops::OpSubjectInfo{...});
//
// The family is listed after parity's (registry/families.hpp) in the program that links the
// registration: a user's property test (parity_add_subject_tests(OP scaled_add ...)). Its name must
// be new; its subjects register with PARITY_REGISTER_OP_SUBJECT under the declared name.
// Include this in the one .cpp that declares the op: the reference's MPFR instantiation is
// compiled there.
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {

// The family of `Op`, made once.
template <class Op>
const gen::Family& user_op_family(const char* default_subject) {
  static const OpFamily family(define_op<Op>(), {}, default_subject);
  return family;
}

}  // namespace parity::ops

#define PARITY_REGISTER_OP(id, Op, default_subject)                                                  \
  namespace {                                                                                        \
  [[maybe_unused]] const bool parity_op_family_registered_##id =                                     \
      (::parity::ops::register_op_family(::parity::ops::user_op_family<Op>(default_subject)), true); \
  }
