// The generators' extents: caps resolve from the defaults, $PARITY_MAX_<EXTENT> and explicit
// values in that order; bad caps are refused naming the flag or the variable.
#include <gtest/gtest.h>

#include <cstdlib>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/properties/gen/extent_caps.hpp>

namespace parity {
namespace {

TEST(ExtentCaps, TheEnvironmentThenExplicitValuesOverrideTheDefaults) {
  const std::vector<gen::ExtentCap> caps = {{"T", 8192, 1 << 20}, {"r", 256, 1 << 20}};
  EXPECT_EQ(gen::extent_cap_variable("r"), "PARITY_MAX_R");
  ::setenv("PARITY_MAX_T", "4096", 1);
  auto m = gen::resolve_extent_caps("lora", caps, {});
  EXPECT_EQ(m.at("T"), 4096);
  EXPECT_EQ(m.at("r"), 256);
  EXPECT_EQ(gen::extent_cap_assignments(caps), "PARITY_MAX_T=4096 ");
  m = gen::resolve_extent_caps("lora", caps, {{"T", 300}});
  EXPECT_EQ(m.at("T"), 300);
  ::unsetenv("PARITY_MAX_T");
}

TEST(ExtentCaps, BadCapsAreRefusedNamingTheVariableOrFlag) {
  const std::vector<gen::ExtentCap> caps = {{"B", 1024, 8192}};
  const auto message = [&](const gen::ExtentMaxima& explicit_maxima) {
    return input_error_message([&] { gen::resolve_extent_caps("transition", caps, explicit_maxima); }, "");
  };
  for (const char* bad : {"0", "010", "8193", "-5", "abc"}) {
    ::setenv("PARITY_MAX_B", bad, 1);
    EXPECT_NE(message({}).find("PARITY_MAX_B"), std::string::npos) << bad;
  }
  ::unsetenv("PARITY_MAX_B");
  EXPECT_NE(message({{"B", 9000}}).find("--max B=9000: 9000 is outside [1, 8192]"), std::string::npos);
  EXPECT_NE(message({{"T", 10}}).find("--max T=10: the transition family has no extent T"), std::string::npos);
}

}  // namespace
}  // namespace parity
