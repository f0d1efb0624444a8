// The transition family's own cases reach the schedule's corners the op's contract leaves out
// (sigma_prev 0, sigma near 0 or one float step below 1, sigma_prev one float step below sigma, a
// sigma_prev per row), within the family's contract; its properties hold on parity-host there;
// and the retired regression's case (sigma 1e-3, corpus/retired) is a family case again.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include <parity/core/error.hpp>
#include <parity/families/transition/transition_cases.hpp>
#include <parity/families/transition/transition_family.hpp>
#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::transition {
namespace {

// A family case of B rows of n elements at (sigma, sigma_prev) `rows`, sde (type 0) or cps.
Case corner_case(std::int64_t n, const std::vector<std::pair<float, float>>& rows, double type) {
  std::vector<double> sigmas;
  for (const auto& row : rows) sigmas.push_back(row.first);
  Case c = family_case(sigmas, n, 0.1);
  c.seed = 11;
  c.params["type"] = type;
  c.params["sigma_max"] = 0.995f;
  for (std::size_t b = 0; b < rows.size(); ++b) c.params["sigma_prev." + std::to_string(b)] = rows[b].second;
  return c;
}

TEST(TransitionCases, TheFamilysCasesReachTheScheduleCorners) {
  bool last_step = false, tiny_sigma = false, below_one = false, one_ulp = false, rows_apart = false;
  const rc::Gen<Case> cases = transition_family().cases();
  for (int k = 0; k < 200; ++k) {
    const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), k % 100).value();
    ASSERT_NO_THROW(transition_family().rules().check_contract(c)) << k;
    const RowCall rows = row_call(c);
    const Tensor& sigma = rows.call.input("sigma");
    for (std::size_t b = 0; b < rows.steps.size(); ++b) {
      const auto s = static_cast<float>(sigma.value_at(static_cast<std::int64_t>(b)));
      const float prev = ops::transition_step::sigma_prev_of(s, rows.steps[b]);
      last_step |= prev == 0.0f;
      tiny_sigma |= s <= 1e-3f;
      below_one |= s == std::nextafter(1.0f, 0.0f);
      one_ulp |= prev == std::nextafter(s, 0.0f);
    }
    rows_apart |= std::set<double>(rows.steps.begin(), rows.steps.end()).size() > 1;
  }
  EXPECT_TRUE(last_step);
  EXPECT_TRUE(tiny_sigma);
  EXPECT_TRUE(below_one);
  EXPECT_TRUE(one_ulp);
  EXPECT_TRUE(rows_apart);
}

TEST(TransitionCases, TheContractRefusesASigmaPrevNoStepReachesOrOnlySomeRowsHave) {
  Case c = corner_case(3, {{0.5f, 0.25f}, {0.5f, 0.0f}}, 0);
  EXPECT_NO_THROW(transition_family().rules().check_contract(c));
  Case above = c;
  above.params["sigma_prev.1"] = 0.75;
  EXPECT_THROW(transition_family().rules().check_contract(above), InputError);
  Case partial = c;
  partial.params.erase("sigma_prev.1");
  EXPECT_THROW(transition_family().rules().check_contract(partial), InputError);
  Case stray = c;
  stray.params["sigma_prev.2"] = 0.25;
  EXPECT_THROW(transition_family().rules().check_contract(stray), InputError);
  Case low = c;
  low.params["sigma.0"] = 0x1p-24;
  low.params["sigma_prev.0"] = 0.0;
  EXPECT_THROW(transition_family().rules().check_contract(low), InputError);
}

TEST(TransitionCases, TheFamilysPropertiesHoldOnParityHostAtTheCorners) {
  const float below_one = std::nextafter(1.0f, 0.0f);
  const std::vector<std::pair<float, float>> rows = {{1e-3f, 0.0f},
                                                     {1e-4f, std::nextafter(1e-4f, 0.0f)},
                                                     {below_one, 0.5f * below_one},
                                                     {1.0f, std::nextafter(1.0f, 0.0f)},
                                                     {0.5f, 0.0f}};
  for (const double type : {0.0, 1.0})
    for (const auto& p : transition_properties()) {
      const Verdict v = transition_family().check("parity-host", p.name, corner_case(300, rows, type));
      EXPECT_TRUE(v.holds()) << p.name << " type " << type << ": " << v.detail;
    }
}

TEST(TransitionCases, TheRetiredRegressionsCaseIsAFamilyCaseAgain) {
  // corpus/retired/transition-matches_formula-sqrt-rounded-once.json in the family's format:
  // four rows at sigma 1e-3 halving, one at 0.763 halving; now
  // corpus/regressions/transition-matches_formula-sqrt-rounded-once.json.
  const std::pair<float, float> tiny{1e-3f, 5e-4f};
  const Case c = corner_case(1, {tiny, tiny, tiny, tiny, {0.763f, 0.3815f}}, 0);
  ASSERT_NO_THROW(transition_family().rules().check_contract(c));
  EXPECT_TRUE(transition_family().check("parity-host", "matches_formula", c).holds());
}

}  // namespace
}  // namespace parity::transition
