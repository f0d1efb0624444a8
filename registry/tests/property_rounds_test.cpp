// The rounds `parity check` and the probes' detection run a family's properties in
// (property_rounds.hpp), on a family of the test's own whose runs are scripted: which counts each
// round asks for, in which order the properties run, that a failure or a property that does not
// apply is settled by its first round while the others run their full count, what each
// property's result is, that a failure the caller does not count runs again, and that a caller
// can stop the rounds.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <parity/properties/gen/property_rounds.hpp>

namespace parity::gen {
namespace {

// Properties: "early" fails at any count, "late" only on a run of 50 cases or more, "holds"
// never fails, "none" does not apply. Each run is recorded as (property, cases asked).
class Scripted : public Family {
 public:
  mutable std::vector<std::pair<std::string, int>> runs;

  std::string name() const override { return "scripted"; }
  std::string description() const override { return "runs scripted by the test"; }
  std::vector<SubjectEntry> subjects() const override { return {}; }
  std::vector<PropertyEntry> properties() const override { return {}; }
  std::string default_subject() const override { return "s"; }
  int cases_per_property() const override { return 100; }
  Verdict check(const std::string&, const std::string& property, const Case&) const override {
    return Verdict::pass(property);
  }
  RunResult run(const std::string&, const std::string& property, const RunConfig& config) const override {
    const int cases = config.cases > 0 ? config.cases : cases_per_property();
    runs.emplace_back(property, config.cases);
    if (property == "none") return not_applicable_result("s", property, "scripted");
    RunResult r;
    r.case_count = cases;
    if (property == "early" || (property == "late" && cases >= 50)) {
      r.cases = 3;
      r.counterexample = Case{};
      r.message = property + " failed at " + std::to_string(cases) + "\n";
    } else {
      r.passed = true;
      r.cases = cases;
    }
    return r;
  }
  rc::Gen<Case> cases() const override { return rc::gen::just(Case{}); }
  const CaseRules& rules() const override { return rules_; }

 private:
  CaseRules rules_;
};

const std::vector<std::string> kProperties = {"early", "late", "holds", "none"};

TEST(PropertyRounds, TheCountsOfEachRound) {
  EXPECT_EQ(round_counts(1), std::vector<int>{1});
  EXPECT_EQ(round_counts(kFirstRoundCases), std::vector<int>{kFirstRoundCases});
  EXPECT_EQ(round_counts(11), (std::vector<int>{kFirstRoundCases, 11}));
  EXPECT_EQ(round_counts(100), (std::vector<int>{kFirstRoundCases, 100}));
}

TEST(PropertyRounds, EveryPropertyRunsItsFirstRoundBeforeAnyRunsItsFullCount) {
  const Scripted family;
  const auto results = run_in_rounds(family, "s", kProperties, RunConfig{});
  // Round one at 10 cases, then the full count as the caller asked it (0: the family's default),
  // for the two that neither failed nor were found not to apply.
  const std::vector<std::pair<std::string, int>> expected = {{"early", 10}, {"late", 10}, {"holds", 10},
                                                             {"none", 10},  {"late", 0},  {"holds", 0}};
  EXPECT_EQ(family.runs, expected);
  ASSERT_EQ(results.size(), kProperties.size());
  for (std::size_t i = 0; i < kProperties.size(); ++i) EXPECT_EQ(results[i].first, kProperties[i]);
  EXPECT_TRUE(results[0].second.counterexample.has_value());
  EXPECT_EQ(results[0].second.case_count, 10);  // its rerun line reruns the 10-case run
  EXPECT_TRUE(results[1].second.counterexample.has_value());
  EXPECT_EQ(results[1].second.case_count, 100);
  EXPECT_TRUE(results[2].second.passed);
  EXPECT_EQ(results[2].second.cases, 100);
  EXPECT_FALSE(results[3].second.not_applicable.empty());
}

TEST(PropertyRounds, AFewCasesAreOneRound) {
  const Scripted family;
  const RunConfig config{.cases = 7};
  run_in_rounds(family, "s", kProperties, config);
  const std::vector<std::pair<std::string, int>> expected = {{"early", 7}, {"late", 7}, {"holds", 7}, {"none", 7}};
  EXPECT_EQ(family.runs, expected);
}

TEST(PropertyRounds, AFailureTheCallerDoesNotCountRunsAgainInTheNextRound) {
  const Scripted family;
  run_in_rounds(family, "s", kProperties, RunConfig{}, [&](const std::string& property, const RunResult&) {
    return property == "early" ? AfterRun::again : AfterRun::next;
  });
  const std::vector<std::pair<std::string, int>> expected = {{"early", 10}, {"late", 10}, {"holds", 10}, {"none", 10},
                                                             {"early", 0},  {"late", 0},  {"holds", 0}};
  EXPECT_EQ(family.runs, expected);
}

TEST(PropertyRounds, TheCallerMayStopAfterAnyRun) {
  const Scripted family;
  int seen = 0;
  const auto results =
      run_in_rounds(family, "s", kProperties, RunConfig{}, [&](const std::string& property, const RunResult&) {
        ++seen;
        return property == "late" ? AfterRun::stop : AfterRun::next;  // stop at late's first run
      });
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(family.runs.size(), 2u);
  ASSERT_EQ(results.size(), 2u);  // the properties never run are absent
  EXPECT_EQ(results[1].first, "late");
  EXPECT_TRUE(results[1].second.passed);
}

}  // namespace
}  // namespace parity::gen
