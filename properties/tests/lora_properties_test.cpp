// Every LoRA property against parity's own LoRA kernel (host twin), over generated cases.
// A failure prints the shrunk case and the command that replays its reproducer.
#include <gtest/gtest.h>

#include "properties/gen/lora_cases.hpp"
#include "properties/gen/run_property.hpp"
#include "properties/lora/lora_properties.hpp"

namespace parity {
namespace {

using properties::lora::LoraProperty;

class LoraHostTwinProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(LoraHostTwinProperty, Holds) {
  const LoraProperty& prop = properties::lora::find_lora_property(GetParam());
  const auto& info = subjects::find_lora_subject("rlkernels-host");
  const auto result = gen::run_property(
      info.name, prop.name, gen::lora_case(),
      [&](const Case& c) {
        auto subject = info.make();
        return prop.check(c, subject.get());
      },
      {});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0) << "no case reached a verdict";
  if (result.passed) std::cout << result.message << "\n";
}

INSTANTIATE_TEST_SUITE_P(Lora, LoraHostTwinProperty,
                         ::testing::ValuesIn([] {
                           std::vector<std::string> with_subject;
                           for (const auto& p : properties::lora::lora_properties())
                             if (p.needs_subject) with_subject.push_back(p.name);
                           return with_subject;
                         }()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace parity
