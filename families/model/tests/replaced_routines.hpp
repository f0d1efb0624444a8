#pragma once
// What the kernel-binding tests check of a model registry with some routines bound to a kernel: it
// has parity's routines in order, each keeping its boundaries and opt-in group, and every routine that
// differs is named "ROUTINE=SUBJECT".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/families/model/routines/model_routines.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity {

// parity's routines that `bound` replaces with routines on `subject`, in registration order (none where the routine
// lists differ in length, which fails the test).
inline std::vector<const runtime::RoutineInfo*> replaced_routines(const runtime::RoutineRegistry& bound,
                                                                  const std::string& subject) {
  const auto& base = model::model_routines().routines();
  const auto& routines = bound.routines();
  EXPECT_EQ(routines.size(), base.size());
  if (routines.size() != base.size()) return {};
  std::vector<const runtime::RoutineInfo*> replaced;
  for (std::size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(routines[i].serves, base[i].serves) << base[i].name;
    EXPECT_EQ(routines[i].opt_in, base[i].opt_in) << base[i].name;
    if (routines[i].name == base[i].name) continue;
    EXPECT_EQ(routines[i].name, base[i].name + "=" + subject);
    replaced.push_back(&base[i]);
  }
  return replaced;
}

// Their names.
inline std::vector<std::string> replaced_routine_names(const runtime::RoutineRegistry& bound,
                                                       const std::string& subject) {
  std::vector<std::string> names;
  for (const runtime::RoutineInfo* routine : replaced_routines(bound, subject)) names.push_back(routine->name);
  return names;
}

}  // namespace parity
