// Every LoRA mismatch probe must be detected by at least one LoRA property within a bounded
// number of generated cases. A probe that nothing detects is a failure of parity itself.
#include <gtest/gtest.h>

#include "properties/gen/lora_runs.hpp"
#include "subjects/probes/lora_probes.hpp"

namespace parity {
namespace {

constexpr int kCasesPerProperty = 200;

class LoraProbeDetected : public ::testing::TestWithParam<std::string> {};

TEST_P(LoraProbeDetected, BySomeProperty) {
  const auto& info = subjects::find_lora_subject(GetParam());
  gen::RunConfig config;
  config.cases = kCasesPerProperty;
  const auto detection = gen::detect_probe(gen::lora_family(), info.name, config);
  if (detection) {
    std::cout << "detected by " << detection->property << ":\n" << detection->result.message;
    EXPECT_TRUE(detection->result.reproducer.has_value()) << "no reproducer was written";
  }
  EXPECT_TRUE(detection.has_value()) << "probe " << info.name << " (" << info.description
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
