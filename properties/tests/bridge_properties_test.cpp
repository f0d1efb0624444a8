// Every bridge property on every bridge subject that must pass (torch-autograd, torch-sdpa),
// over generated configurations: the manual float64 backward matches LibTorch autograd, is the
// derivative of its own forward, and every path refuses every bad input alike. A subject this
// LibTorch cannot run (torch-sdpa without an SDPA) is skipped with the reason. A failure prints
// the shrunk case and the command that replays its reproducer.
#include <gtest/gtest.h>

#include <iostream>

#include <parity/properties/gen/bridge_runs.hpp>
#include <parity/properties/tests/gtest_name.hpp>

namespace parity {
namespace {

namespace bridge = properties::bridge;

struct Param {
  std::string subject, property;
};
void PrintTo(const Param& p, std::ostream* os) { *os << p.subject << "/" << p.property; }

class BridgeProperty : public ::testing::TestWithParam<Param> {};

TEST_P(BridgeProperty, Holds) {
  const auto& subject = bridge::find_bridge_subject(GetParam().subject);
  if (const std::string why = subject.unavailable(); !why.empty()) GTEST_SKIP() << subject.name << ": " << why;
  const auto result = gen::run_bridge_property(subject, bridge::find_bridge_property(GetParam().property), {});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0) << "no case reached a verdict";
  if (result.passed) std::cout << result.message << "\n";
}

std::vector<Param> params() {
  std::vector<Param> all;
  for (const auto& s : bridge::bridge_subjects())
    if (s.role == bridge::BridgeRole::implementation)
      for (const auto& p : bridge::bridge_properties()) all.push_back({s.name, p.name});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Bridge, BridgeProperty, ::testing::ValuesIn(params()),
                         [](const auto& info) { return gtest_name(info.param.subject + "_" + info.param.property); });

}  // namespace
}  // namespace parity
