#pragma once
// RapidCheck generator of trajectory Cases (families/trajectory/trajectory_problem.hpp):
// 1-3 Euler steps, tokens in [3, max_tokens], 0-2 joint blocks, 0-max_straddles straddling
// elements per sample, 2-3 seeds. Everything shrinks: fewer steps, blocks, tokens, straddles
// and seeds.
#include <cstdint>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/properties/gen/case_rules.hpp>

namespace parity::gen {

struct TrajectoryCaps {
  std::int64_t max_tokens = 24;
  std::int64_t max_straddles = 12;
};

rc::Gen<Case> trajectory_family_case(TrajectoryCaps caps = {});

// The trajectory contract (properties::trajectory::TrajectoryProblem::from accepts the Case);
// no field depends on another's extent.
const CaseRules& trajectory_rules();

}  // namespace parity::gen
