#pragma once
// RapidCheck generator of LoRA Cases (properties/lora/lora_problem.hpp says what each field
// means), for the family's own properties (base_frozen, zero_adapter_gradients). Each extent is
// small most of the time (1, primes, 2^k +- 1 and tile sizes up to the small maxima T 80, N 130,
// K 400, r 17, and the reference extents under them: fast, and where shrinking ends) and one time
// in six a threshold above those maxima (2^k - 1, 2^k, 2^k + 1 up to 8193, the reference extents,
// the cap itself; values.hpp's sized_extent). A case over the work budget (max_work, and N K <=
// 2^20: every element of W is drawn, whatever T) has its large extents demoted, N first, then K,
// then r, then T, each halved until the case fits (a power of two stays one) or it falls to its
// small draw, which it then takes. The probe row sits anywhere in the batch; layouts are mixed per
// operand; up to three float32 patches go on random elements. Everything shrinks: smaller
// extents, contiguous layouts, fewer patches, the probe row towards 0.
#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/properties/gen/case_rules.hpp>
#include <parity/properties/gen/extent_caps.hpp>

namespace parity::gen {

struct LoraCaps {
  std::int64_t max_T = 8192;
  std::int64_t max_N = 8192;
  std::int64_t max_K = 8192;
  std::int64_t max_r = 256;
  // T K (N + r) + T N r, one forward's multiply-adds.
  std::int64_t max_work = std::int64_t{1} << 24;
  bool strided_layouts = true;  // false: every operand contiguous (SubjectCapabilities)
};

rc::Gen<Case> lora_case(LoraCaps caps = {});

// The caps a user may set (extent_caps.hpp): T, N, K, r and work (PARITY_MAX_WORK, --max-work),
// with LoraCaps' defaults and the contract's limits (2^20 per extent, 2^33 multiply-adds).
const std::vector<ExtentCap>& lora_extent_caps();
// `maxima` (resolve_extent_caps over lora_extent_caps) as LoraCaps.
LoraCaps lora_caps(const ExtentMaxima& maxima);

// The LoRA contract (properties::lora::check_contract) and its consistency rules: probe_row < T,
// patch indices inside their operand.
const CaseRules& lora_rules();

}  // namespace parity::gen
