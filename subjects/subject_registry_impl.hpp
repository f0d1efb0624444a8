#pragma once
// The definitions behind SubjectRegistry; included by each family's .cpp, which instantiates
// the registry of its subject type once (`template class SubjectRegistry<LoraSubject>;`).
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/subjects/subject_registry.hpp>

namespace parity::subjects {

template <class Subject>
SubjectRegistry<Subject>& SubjectRegistry<Subject>::instance() {
  static SubjectRegistry registry;
  return registry;
}

template <class Subject>
void SubjectRegistry<Subject>::add(SubjectInfo<Subject> info) {
  if (read_)
    throw std::logic_error("register_subject(" + info.name + "): the subject list was already read; register " +
                           "at static initialisation (PARITY_REGISTER_SUBJECT) or before running any property");
  if (info.name.empty()) throw InputError("register_subject: a subject needs a name");
  if (!info.make) throw InputError("register_subject(" + info.name + "): make is empty");
  for (const auto& e : entries_)
    if (e.name == info.name) throw InputError("register_subject: '" + info.name + "' is already registered");
  if (!info.unavailable_reason) info.unavailable_reason = [] { return std::string(); };
  entries_.push_back(std::move(info));
}

template <class Subject>
const std::vector<SubjectInfo<Subject>>& SubjectRegistry<Subject>::entries() {
  read_ = true;
  return entries_;
}

template <class Subject>
const SubjectInfo<Subject>& SubjectRegistry<Subject>::find(const std::string& name, const std::string& family) {
  std::string known;
  for (const auto& s : entries()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("unknown " + family + " subject '" + name + "' (known: " + known + ")");
}

}  // namespace parity::subjects
