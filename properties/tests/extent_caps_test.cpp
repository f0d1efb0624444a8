// The generators' extents: the large tier of sized_extent draws above the small range and within
// its cap; caps resolve from the defaults, $PARITY_MAX_<EXTENT> and explicit values in that order;
// bad caps are refused naming the flag or the variable.
#include <gtest/gtest.h>

#include <cstdlib>

#include <parity/core/error.hpp>
#include <parity/properties/gen/extent_caps.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity {
namespace {

// The large tier draws only what the small one cannot reach (else a large T of 31..70 would
// take the place of one past 128), and under a cap below every threshold still something.
TEST(ExtentCaps, LargeDrawsLieAboveTheSmallRange) {
  rc::Random random(0x51CEull);
  for (int i = 0; i < 500; ++i) {
    const gen::SizedExtent e = gen::sized_extent(8192, 80, {33, 70, 257})(random.split(), 100).value();
    EXPECT_GT(e.large, 80);
    EXPECT_LE(e.large, 8192);
    const gen::SizedExtent capped = gen::sized_extent(40, 80)(random.split(), 100).value();
    EXPECT_LE(capped.large, 40);
  }
}

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
    try {
      gen::resolve_extent_caps("transition", caps, explicit_maxima);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  for (const char* bad : {"0", "010", "8193", "-5", "abc"}) {
    ::setenv("PARITY_MAX_B", bad, 1);
    EXPECT_NE(message({}).find("PARITY_MAX_B"), std::string::npos) << bad;
  }
  ::unsetenv("PARITY_MAX_B");
  EXPECT_NE(message({{"B", 9000}}).find("--max-B"), std::string::npos);
  EXPECT_NE(message({{"T", 10}}).find("--max-T: the transition family has no extent T"), std::string::npos);
}

}  // namespace
}  // namespace parity
