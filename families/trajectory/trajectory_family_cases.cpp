#include <parity/families/trajectory/trajectory_family_cases.hpp>

#include <parity/families/trajectory/trajectory_problem.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity::gen {

rc::Gen<Case> trajectory_family_case(TrajectoryCaps caps) {
  return rc::gen::apply(
      [](std::int64_t steps, std::int64_t tokens, std::int64_t blocks, std::int64_t straddles, std::int64_t count,
         std::vector<std::uint32_t> seeds, std::uint64_t weight_seed) {
        std::vector<std::uint64_t> s(seeds.begin(), seeds.begin() + count);
        return properties::trajectory::trajectory_case(s, static_cast<int>(steps), tokens, static_cast<int>(blocks),
                                                       static_cast<int>(straddles), weight_seed);
      },
      shrinking_element<std::int64_t>({1, 2, 3}), rc::gen::inRange<std::int64_t>(3, caps.max_tokens + 1),
      shrinking_element<std::int64_t>({0, 1, 2}),
      rc::gen::resize(100, rc::gen::inRange<std::int64_t>(0, caps.max_straddles + 1)),
      shrinking_element<std::int64_t>({2, 3}),
      rc::gen::container<std::vector<std::uint32_t>>(3, rc::gen::arbitrary<std::uint32_t>()),
      rc::gen::arbitrary<std::uint64_t>());
}

const CaseRules& trajectory_rules() {
  static const CaseRules rules{[](const Case& c) { (void)properties::trajectory::TrajectoryProblem::from(c); },
                               [](Case c) { return c; }};
  return rules;
}

}  // namespace parity::gen
