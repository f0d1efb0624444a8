#pragma once
// Test support for output-straddling plans (op_straddle.hpp).
#include <vector>

#include <parity/core/case.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>

namespace parity::ops::testing {

// Each target's distance from its midpoint in the Case with the plan's patches appended, from
// the full (not one-row) reference.
inline std::vector<double> distances(const OpDef& op, Case c, const StraddlePlan& plan) {
  for (const Patch& p : plan.patches) c.patches.push_back(p);
  const OpProblem p = materialise(op.decl, c);
  const OutputValues out = op.oracle(p.values);
  std::vector<double> d;
  for (const Straddle& s : plan.targets)
    d.push_back(midpoint_distance_ulps(out.at(s.output).at(static_cast<std::size_t>(s.index)),
                                       p.call.output_dtypes.at(s.output)));
  return d;
}

}  // namespace parity::ops::testing
