// Every transition property against one of parity's own transition kernels, over generated
// cases. usage: transition_properties_test [SUBJECT] (default rlkernels-host); exits 77 when
// the subject cannot run here. A failure prints the shrunk case and its replay command.
#include <gtest/gtest.h>

#include <iostream>

#include "properties/gen/transition_runs.hpp"

namespace parity {

std::string g_subject = "rlkernels-host";

namespace {

class TransitionKernelProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(TransitionKernelProperty, Holds) {
  const auto& prop = properties::transition::find_transition_property(GetParam());
  const auto& info = subjects::find_transition_subject(g_subject);
  const auto result = gen::run_transition_property(info, prop, {});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0) << "no case reached a verdict";
  if (result.passed) std::cout << result.message << "\n";
}

INSTANTIATE_TEST_SUITE_P(Transition, TransitionKernelProperty, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& p : properties::transition::transition_properties())
                             if (p.needs_subject) names.push_back(p.name);
                           return names;
                         }()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace parity

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) parity::g_subject = argv[1];
  const auto& info = parity::subjects::find_transition_subject(parity::g_subject);
  if (const std::string why = info.unavailable_reason(); !why.empty()) {
    std::cout << info.name << " skipped: " << why << "\n";
    return 77;
  }
  return RUN_ALL_TESTS();
}
