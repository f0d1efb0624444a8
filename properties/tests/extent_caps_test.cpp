// The generators' sizes: by default they reach the thresholds where real kernels change plan
// (T >= 128, r > 32, both sides of 64/65 rows) while most cases stay small; a cap, from
// RunConfig or $PARITY_MAX_<EXTENT>, is never exceeded; bad caps are refused naming the flag or
// the variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

#include <parity/core/error.hpp>
#include <parity/properties/gen/extent_caps.hpp>
#include <parity/properties/gen/lora_cases.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity {
namespace {

void draw(const rc::Gen<Case>& gen, int count, const std::function<void(const Case&)>& visit) {
  rc::Random random(0xCA95ull);
  for (int i = 0; i < count; ++i) visit(gen(random.split(), i % 2 ? i % 101 : 100).value());
}

double work(const Case& c) {
  const double T = static_cast<double>(c.dim("T"));
  const double N = static_cast<double>(c.dim("N")), K = static_cast<double>(c.dim("K")),
               r = static_cast<double>(c.dim("r"));
  return T * K * (N + r) + T * N * r;
}

TEST(ExtentCaps, LoraDefaultsReachTheThresholdsAndMostCasesStaySmall) {
  const gen::LoraCaps caps;
  int rows_128 = 0, rank_33 = 0, small = 0;
  const int count = 400;
  draw(gen::lora_case(caps), count, [&](const Case& c) {
    const std::int64_t T = c.dim("T");
    rows_128 += T >= 128;
    rank_33 += c.dim("r") > 32;
    small += T <= 80 && c.dim("N") <= 130 && c.dim("K") <= 400 && c.dim("r") <= 17;
    EXPECT_LE(work(c), static_cast<double>(caps.max_work)) << c.summary();
    EXPECT_NO_THROW(gen::lora_rules().check_contract(c)) << c.summary();
  });
  EXPECT_GE(rows_128, count / 20);
  EXPECT_GE(rank_33, count / 20);
  EXPECT_GE(small, count / 3);
}

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

TEST(ExtentCaps, LoraCapsAreNeverExceeded) {
  gen::LoraCaps caps;
  caps.max_T = 100;
  caps.max_N = 40;
  caps.max_K = 3000;
  caps.max_r = 5;
  bool deep = false;
  draw(gen::lora_case(caps), 300, [&](const Case& c) {
    EXPECT_LE(c.dim("T"), 100) << c.summary();
    EXPECT_LE(c.dim("N"), 40);
    EXPECT_LE(c.dim("K"), 3000);
    EXPECT_LE(c.dim("r"), 5);
    deep = deep || c.dim("K") > 400;
  });
  EXPECT_TRUE(deep) << "a raised cap is reached";
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
