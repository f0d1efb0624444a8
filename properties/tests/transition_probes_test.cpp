// Every transition mismatch probe must be detected by some transition property, on a case
// that parity's own kernel passes, within a bounded number of generated cases.
#include <gtest/gtest.h>

#include "properties/gen/transition_runs.hpp"
#include "subjects/probes/transition_probes.hpp"

namespace parity {
namespace {

constexpr int kCasesPerProperty = 200;

class TransitionProbeDetected : public ::testing::TestWithParam<std::string> {};

TEST_P(TransitionProbeDetected, BySomeProperty) {
  gen::RunConfig config;
  config.cases = kCasesPerProperty;
  const auto detection = gen::detect_probe(gen::transition_family(), GetParam(), config);
  if (detection) {
    std::cout << "detected by " << detection->property << ":\n" << detection->result.message;
    EXPECT_TRUE(detection->result.reproducer.has_value()) << "no reproducer was written";
  }
  EXPECT_TRUE(detection.has_value()) << "probe " << GetParam() << " was detected by no property in "
                                     << kCasesPerProperty << " cases each";
}

INSTANTIATE_TEST_SUITE_P(Transition, TransitionProbeDetected, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& p : subjects::probes::transition_probes()) names.push_back(p.name);
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
