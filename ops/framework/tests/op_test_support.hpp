#pragma once
// What an op folder's unit test asks of its op family: the declaration and reference, and a fresh
// instance of one of its subjects.
#include <memory>
#include <stdexcept>
#include <string>

#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::testing {

// The declaration and reference of the op family `f`.
inline const OpDef& def_of(const gen::Family& f) { return dynamic_cast<const OpFamily&>(f).def(); }

// A fresh instance of the subject `name` of the op family `f` (parity's own registered first);
// std::logic_error when it has none of that name.
inline std::unique_ptr<OpSubject> make_subject(const gen::Family& f, const std::string& name) {
  f.subjects();
  for (const auto& s : op_subjects(f.name()))
    if (s.name == name) return s.make();
  throw std::logic_error(f.name() + " has no subject " + name);
}

}  // namespace parity::ops::testing
