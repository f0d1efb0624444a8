#pragma once
// RapidCheck generator of transition Cases (properties/transition/transition_problem.hpp says
// what each field means). B from 1 to 8; row lengths biased to edge sizes, to the reference
// shapes' channels and token counts, and to the partition thresholds of common reduction
// implementations (2^k - 1, 2^k, 2^k + 1 up to 2^20); sigmas across (0, 1] with 1 and values
// near 0; the sde and cps steps, with and without the normaliser; latents in float32 or bf16,
// with patches that straddle bf16 rounding boundaries. Shrinks towards one short sde row.
#include <cstdint>

#include <rapidcheck.h>

#include "core/case.hpp"
#include "properties/gen/case_rules.hpp"

namespace parity::gen {

struct TransitionCaps {
  std::int64_t max_B = 8;
  std::int64_t max_elements = std::int64_t{1} << 21;  // B x tokens x channels
  int max_threshold_exponent = 20;                    // 2^k +- 1 row lengths up to this k
  bool strided_layouts = true;  // false: every operand contiguous (SubjectCapabilities)
};

rc::Gen<Case> transition_case(TransitionCaps caps = {});

// The transition contract (properties::transition::check_contract) and its consistency rules:
// probe_row < B, sigma.<b> and sigma_prev.<b> for each row b < B (rows past B lose theirs),
// patch indices inside B x tokens x channels.
const CaseRules& transition_rules();

}  // namespace parity::gen
