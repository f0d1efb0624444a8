// Every bridge mismatch probe must be caught:
//  - by the family's properties, as `parity probes bridge` runs them (detect_probe), with a
//    shrunk reproducer that fails again when replayed;
//  - on every generated configuration where the probe changes the function at all
//    (check_probe_caught: the float64 oracle decides whether it changes it; the others are
//    discarded, and some configurations must remain);
// and each probe that LibTorch can express is a real alternative model: its manual backward
// matches autograd running the same deviation, so what is caught is the deviation itself.
#include <gtest/gtest.h>

#include <iostream>

#include <parity/oracles/tiny_gpt.hpp>
#include <parity/properties/gen/bridge_runs.hpp>
#include <parity/properties/tests/gtest_name.hpp>

namespace parity {
namespace {

namespace bridge = properties::bridge;

constexpr int kCases = 40;

class BridgeProbe : public ::testing::TestWithParam<std::string> {};

TEST_P(BridgeProbe, DetectedByTheFamily) {
  const gen::RunConfig config{.cases = kCases};
  const auto detection = gen::detect_probe(gen::bridge_family(), GetParam(), config);
  ASSERT_TRUE(detection.has_value()) << GetParam() << " was detected by no bridge property in " << kCases
                                     << " cases each";
  std::cout << "detected by " << detection->property << ":\n" << detection->result.message;
  ASSERT_TRUE(detection->result.reproducer.has_value()) << "no reproducer was written";
  const Verdict again = gen::bridge_family().check(GetParam(), detection->property, *detection->result.counterexample);
  EXPECT_TRUE(again.fails()) << "the shrunk case does not fail when replayed: " << again.detail;
}

TEST_P(BridgeProbe, CaughtWhereverItChangesTheFunction) {
  const gen::RunConfig config{.cases = gen::default_case_count(kCases)};
  const auto result = gen::run_bridge_probe_caught(bridge::find_bridge_subject(GetParam()), config);
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0) << "the probe changed the function on no generated case";
  std::cout << result.message << "\n";
}

TEST_P(BridgeProbe, IsARealAlternativeModel) {
  const auto& probe = bridge::find_bridge_subject(GetParam());
  const bridge::BridgeProblem p = bridge::materialise_bridge(bridge::reference_bridge_case());
  const auto deviant = probe.manual_config(p.config);
  if (deviant.ln_unbiased_variance)
    GTEST_SKIP() << "LibTorch's layer_norm has no unbiased form; finite_differences checks this probe's backward";
  const auto manual = oracles::tiny_gpt_forward_backward(deviant, p.params, p.ids, p.targets);
  const auto autograd = subjects::torch_impl::tiny_gpt_torch(deviant, p.params, p.ids, p.targets,
                                                             subjects::torch_impl::TinyGptAttention::explicit_matmul);
  const bridge::Tolerance tol;
  const auto same = bridge::compare_bridge(manual, autograd, tol);
  EXPECT_TRUE(same.passed()) << same.first_failure(tol);
  const auto truth = oracles::tiny_gpt_forward_backward(p.config, p.params, p.ids, p.targets);
  EXPECT_FALSE(bridge::compare_bridge(manual, truth, tol).passed()) << "the probe does not change the reference model";
}

INSTANTIATE_TEST_SUITE_P(Bridge, BridgeProbe, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& s : bridge::bridge_subjects())
                             if (s.role == bridge::BridgeRole::probe) names.push_back(s.name);
                           return names;
                         }()),
                         [](const auto& info) { return gtest_name(info.param); });

}  // namespace
}  // namespace parity
