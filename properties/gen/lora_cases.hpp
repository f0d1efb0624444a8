#pragma once
// RapidCheck generator of LoRA Cases (properties/lora/lora_problem.hpp says what each field
// means). Each extent is small most of the time (1, primes, 2^k +- 1 and tile sizes up to the
// small maxima T 80, N 130, K 400, r 17, and the reference extents under them: fast, and where
// shrinking ends) and otherwise a threshold above those maxima where real kernels change plan
// (2^k - 1, 2^k, 2^k + 1 up to 8193, the reference extents, the cap itself; values.hpp's
// sized_extent): T one time in four (the kernels' plans switch on the row count: split-K from
// 128 rows, a batch plan chosen from the total rows), N, K and r one time in six. A case over the work budget
// (max_work, and N K <= 2^20: every element of W is drawn, whatever T) has its large extents demoted, N first, then K,
// then r, then T, each halved until the case fits (a power of two stays one) or it falls to its small draw, which it
// then takes. params.other_rows, the second batch of batch_vs_batch, is T + 1, 2T or T + a drawn amount (T - that
// amount where T + it exceeds the cap), counted in the budget. A case whose oracle work for y, T N (K + r), exceeds
// 2^22 has params.checked_outputs = 4096: the accuracy checks judge that many drawn elements of y and of dx
// (lora_problem.hpp). The probe row sits anywhere in the batch; layouts are mixed per operand; up to three float32
// patches go on random elements; two cases in three then get one to sixteen output-straddling patches on B
// (properties/lora/straddle.hpp) that put outputs of the probe row on bf16 rounding
// midpoints. Everything shrinks: smaller extents, contiguous layouts, fewer patches, the probe
// row towards 0.
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
  // T K (N + r) + T N r, one forward's multiply-adds, at the larger of T and other_rows.
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
