// Failure kinds (core/verdict.hpp): every kind's JSON name maps back to it, through the one
// table that readers of a name share, and nothing else does.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <parity/core/verdict.hpp>

namespace parity {
namespace {

TEST(FailureKind, EveryKindRoundTripsThroughItsName) {
  std::set<std::string> names;
  for (const FailureKind k : failure_kinds()) {
    const std::string name = failure_kind_name(k);
    EXPECT_NE(name, "?") << static_cast<int>(k);
    EXPECT_NE(failure_kind_text(k), "?") << name;
    EXPECT_TRUE(names.insert(name).second) << name << " names two kinds";
    EXPECT_EQ(failure_kind_from_name(name), k) << name;
  }
  // Declaration order, from the first kind to the last.
  ASSERT_EQ(failure_kinds().size(), static_cast<std::size_t>(FailureKind::out_of_memory) + 1);
  for (std::size_t i = 0; i < failure_kinds().size(); ++i) EXPECT_EQ(static_cast<std::size_t>(failure_kinds()[i]), i);
}

TEST(FailureKind, OtherStringsNameNoKind) {
  for (const char* other : {"", "Value", "value ", "sometimes", "holds", "fails", "a wrong value"})
    EXPECT_EQ(failure_kind_from_name(other), std::nullopt) << other;
}

}  // namespace
}  // namespace parity
