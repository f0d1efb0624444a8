#pragma once
// RapidCheck generator of LoRA Cases (properties/lora/lora_problem.hpp says what each field
// means). Shapes are biased to edge sizes and to the reference shapes' extents that fit under
// the caps; the probe row sits anywhere in the batch; layouts are mixed per operand; up to
// three float32 patches go on random elements; two cases in three then get one to sixteen
// output-straddling patches on B (properties/lora/straddle.hpp) that put outputs of the probe
// row on bf16 rounding midpoints. Everything shrinks: smaller extents, contiguous layouts,
// fewer patches, the probe row towards 0.
#include <cstdint>

#include <rapidcheck.h>

#include "core/case.hpp"
#include "properties/gen/case_rules.hpp"

namespace parity::gen {

struct LoraCaps {
  std::int64_t max_T = 80;
  std::int64_t max_N = 130;
  std::int64_t max_K = 400;
  std::int64_t max_r = 17;
  bool strided_layouts = true;  // false: every operand contiguous (SubjectCapabilities)
};

rc::Gen<Case> lora_case(LoraCaps caps = {});

// The LoRA contract (properties::lora::check_contract) and its consistency rules: probe_row < T,
// patch indices inside their operand.
const CaseRules& lora_rules();

}  // namespace parity::gen
