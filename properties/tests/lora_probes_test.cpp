// Every LoRA mismatch probe must be detected by at least one LoRA property within a bounded
// number of generated cases. A probe that nothing detects is a failure of parity itself.
#include <gtest/gtest.h>

#include "properties/gen/lora_cases.hpp"
#include "properties/gen/run_property.hpp"
#include "properties/lora/lora_properties.hpp"
#include "subjects/probes/lora_probes.hpp"

namespace parity {
namespace {

constexpr int kCasesPerProperty = 60;

class LoraProbeDetected : public ::testing::TestWithParam<std::string> {};

TEST_P(LoraProbeDetected, BySomeProperty) {
  const auto& info = subjects::find_lora_subject(GetParam());
  std::string detected_by;
  for (const auto& prop : properties::lora::lora_properties()) {
    if (!prop.needs_subject) continue;
    gen::RunConfig config;
    config.cases = kCasesPerProperty;
    const auto result = gen::run_property(
        info.name, prop.name, gen::lora_case(),
        [&](const Case& c) {
          auto subject = info.make();
          return prop.check(c, subject.get());
        },
        config);
    if (result.counterexample) {
      detected_by = prop.name;
      std::cout << result.message;
      ASSERT_TRUE(result.reproducer.has_value());
      break;
    }
  }
  EXPECT_FALSE(detected_by.empty()) << "probe " << info.name << " (" << info.description
                                    << ") was detected by no property in " << kCasesPerProperty
                                    << " cases each";
}

INSTANTIATE_TEST_SUITE_P(Lora, LoraProbeDetected, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& p : subjects::probes::lora_probes()) names.push_back(p.name);
                           return names;
                         }()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace parity
