// Every LoRA property against one of parity's own LoRA kernels, over generated cases.
// usage: lora_properties_test [SUBJECT] (default rlkernels-host). Exits 77 (skipped) when the
// subject cannot run here, e.g. rlkernels-cuda without a device. A failure prints the shrunk
// case and the command that replays its reproducer.
#include <gtest/gtest.h>

#include <iostream>

#include "properties/gen/lora_runs.hpp"

namespace parity {

std::string g_subject = "rlkernels-host";

namespace {

using properties::lora::LoraProperty;

class LoraKernelProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(LoraKernelProperty, Holds) {
  const LoraProperty& prop = properties::lora::find_lora_property(GetParam());
  const auto& info = subjects::find_lora_subject(g_subject);
  const auto result = gen::run_lora_property(info, prop, {});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0) << "no case reached a verdict";
  if (result.passed) std::cout << result.message << "\n";
}

INSTANTIATE_TEST_SUITE_P(Lora, LoraKernelProperty,
                         ::testing::ValuesIn([] {
                           std::vector<std::string> with_subject;
                           for (const auto& p : properties::lora::lora_properties())
                             if (p.needs_subject) with_subject.push_back(p.name);
                           return with_subject;
                         }()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace parity

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) parity::g_subject = argv[1];
  const auto& info = parity::subjects::find_lora_subject(parity::g_subject);
  if (!info.must_pass()) {
    std::cerr << info.name << " is not one of parity's kernels\n";
    return 2;
  }
  if (const std::string why = info.unavailable_reason(); !why.empty()) {
    std::cout << info.name << " skipped: " << why << "\n";
    return 77;
  }
  return RUN_ALL_TESTS();
}
