#pragma once
// One model property on a subject, as the kernel-binding tests run it: 25 cases from a fixed
// seed, no shrinking, no reproducer; and what those tests expect of a kernel's model subject.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/core/verdict.hpp>
#include <parity/families/model/model_runs.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity {

inline gen::RunResult run_model_property(const std::string& subject, const std::string& property) {
  return gen::model_family().run(subject, property,
                                 {.cases = 25, .seed = 7, .shrink = false, .write_reproducer = false});
}

// Every model property holds on `subject`; a failure names the property.
inline void expect_every_model_property_holds(const std::string& subject) {
  for (const auto& p : gen::model_family().properties()) {
    const gen::RunResult r = run_model_property(subject, p.name);
    EXPECT_TRUE(r.passed) << p.name << ": " << r.message;
  }
}

// `subject` (a kernel whose bits depend on the batch) fails batch_invariant_bound on a value, its
// message holding each of `texts`, and holds audit_equals_strict.
inline void expect_fails_batch_invariance(const std::string& subject, const std::vector<std::string>& texts) {
  const gen::RunResult r = run_model_property(subject, "batch_invariant_bound");
  EXPECT_FALSE(r.passed) << r.message;
  ASSERT_TRUE(r.verdict.has_value()) << r.message;
  EXPECT_EQ(r.verdict->kind, FailureKind::value) << r.message;
  for (const std::string& text : texts) EXPECT_NE(r.message.find(text), std::string::npos) << r.message;
  EXPECT_TRUE(run_model_property(subject, "audit_equals_strict").passed);
}

}  // namespace parity
