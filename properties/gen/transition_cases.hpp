#pragma once
// RapidCheck generator of transition Cases (properties/transition/transition_problem.hpp says
// what each field means). B from 1 to 8 most of the time, one time in three a batch size where
// reductions change plan (9, 15, 16, 17, then 2^k - 1, 2^k, 2^k + 1 from 31 up to the cap:
// values.hpp's threshold_extents), B x tokens x channels kept within max_elements (B is
// reduced first). Row lengths biased to edge sizes, to the reference
// shapes' channels and token counts, and to the partition thresholds of common reduction
// implementations (2^k - 1, 2^k, 2^k + 1 up to 2^20); sigmas across (0, 1] with 1 and values
// near 0; the sde and cps steps, with and without the normaliser; latents in float32 or bf16,
// with patches that straddle bf16 rounding boundaries. Shrinks towards one short sde row.
#include <cstdint>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/properties/gen/case_rules.hpp>
#include <parity/properties/gen/extent_caps.hpp>

namespace parity::gen {

struct TransitionCaps {
  // 64: reaches the batch thresholds kernels switch at (above 8) while a default run's
  // shrinking stays cheap; raise it with PARITY_MAX_B / --max-B. (The
  // last-bit differences once seen above it were LibTorch's sqrt, not parity's kernel:
  // matches_formula compares with parity's own rounded-once evaluation now.)
  std::int64_t max_B = 64;
  std::int64_t max_tokens = std::int64_t{1} << 20;  // 2^k +- 1 row lengths and reference shapes up to it
  std::int64_t max_channels = 96;
  std::int64_t max_elements = std::int64_t{1} << 21;  // B x tokens x channels
  bool strided_layouts = true;                        // false: every operand contiguous (SubjectCapabilities)
};

rc::Gen<Case> transition_case(TransitionCaps caps = {});

// The caps a user may set (extent_caps.hpp): B, tokens, channels and elements
// (PARITY_MAX_ELEMENTS, --max-elements), with TransitionCaps' defaults and the contract's limits.
const std::vector<ExtentCap>& transition_extent_caps();
// `maxima` (resolve_extent_caps over transition_extent_caps) as TransitionCaps.
TransitionCaps transition_caps(const ExtentMaxima& maxima);

// The transition contract (properties::transition::check_contract) and its consistency rules:
// probe_row < B, sigma.<b> and sigma_prev.<b> for each row b < B (rows past B lose theirs),
// patch indices inside B x tokens x channels.
const CaseRules& transition_rules();

}  // namespace parity::gen
