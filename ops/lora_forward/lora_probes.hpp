#pragma once
// Mismatch probes of parity's LoRA kernel: its host twin (lora_host.hpp) with one step changed,
// each wrong in a way a user's kernel could be, each a subject of lora_forward and of
// lora_backward where its fault can show there (`parity probes lora_forward`, `parity probes
// lora_backward`): the split-K and plan-switch probes split the forward's base reduction alone,
// so they are lora_forward's only.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>

namespace parity::ops::lora_forward {

// The reduction of the forward base product splits in two halves of K once a call has more
// than this many rows (a split-K that a shape heuristic turns on).
inline constexpr std::int64_t kSplitKRowThreshold = 16;

// The reduction of the forward base product splits in two halves of K for a call of more
// than one row, but only once K is at least this deep: a batch variance that cases with a
// shallow reduction never show.
inline constexpr std::int64_t kSplitKMinDepth = 32;

// Thresholds of the probes at the sizes where real kernels change plan: a split-K from this many
// rows on; a rank-dependent path above this rank that drops the last column of B; one plan for
// 2..kPlanSwitchRows rows and another (the split-K, which the single-row call also takes) above.
inline constexpr std::int64_t kSplitKFromRows = 128, kRankPathAbove = 32, kPlanSwitchRows = 64;

namespace probes {

// Forgets the LoRA scale s = alpha / r (multiplies the low-rank path by 1).
struct ScaleDropped : StandardArithmetic {
  static float effective_scale(float) { return 1.0f; }
};

// Splits the base reduction over K in two halves, summed at the end, above a row count.
struct SplitKByRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows > kSplitKRowThreshold; }
};

// Splits the base reduction over K in two halves for more than one row, once K is deep enough.
struct SplitKByDepth : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t K) { return rows > 1 && K >= kSplitKMinDepth; }
};

// Splits the base reduction over K in two halves from kSplitKFromRows rows on.
struct SplitKFromRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows >= kSplitKFromRows; }
};

// One plan for 2..kPlanSwitchRows rows, the split-K above them and for a single row: the
// single-row path agrees with large batches, so only batches on both sides of the switch differ.
struct PlanSwitchAtRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows == 1 || rows > kPlanSwitchRows; }
};

// Above rank kRankPathAbove, a path that leaves out the last column of B (the kernel's rank loop
// stops one short), forward and backward.
struct RankPathDropsLastColumn : StandardArithmetic {
  static bool drops_last_rank_column(std::int64_t r) { return r > kRankPathAbove; }
};

// Accumulates in bf16: every partial sum is rounded to bf16.
struct Bf16Accumulation : StandardArithmetic {
  static float mac(float acc, float a, float b) { return round_through_bf16(fmaf(a, b, acc)); }
};

// Converts the float32 results to bf16 by truncation instead of rounding to nearest even.
struct TruncatingConversion : StandardArithmetic {
  static std::uint16_t round_output(float v) { return bf16_from_float_truncate(v); }
};

}  // namespace probes

// The names add_lora_probes registers (the forward's; the backward's are those but the split-K and
// plan-switch ones), for the LoRA family, which leaves them to the ops.
inline constexpr std::array<std::string_view, 8> kLoraProbes = {
    "probe-scale-dropped",         "probe-split-k-by-rows",          "probe-split-k-by-depth",
    "probe-split-k-from-128-rows", "probe-rank-path-drops-b-column", "probe-plan-switch-at-64-rows",
    "probe-bf16-accumulation",     "probe-truncating-bf16"};

// Registers the probes with the op of `probes` (ForwardHost or BackwardHost), the forward's
// split-K and plan-switch probes where `forward`.
template <template <class> class Host>
void add_lora_probes(const HostProbes<Host>& probes, bool forward) {
  probes.template add<probes::ScaleDropped>("probe-scale-dropped", "drops the LoRA scale s = alpha / r");
  if (forward) {
    probes.template add<probes::SplitKByRows>(
        "probe-split-k-by-rows",
        "splits the base reduction over K in two above " + std::to_string(kSplitKRowThreshold) + " rows");
    probes.template add<probes::SplitKByDepth>("probe-split-k-by-depth",
                                               "splits the base reduction over K in two for more than one row once "
                                               "K >= " +
                                                   std::to_string(kSplitKMinDepth));
    probes.template add<probes::SplitKFromRows>(
        "probe-split-k-from-128-rows",
        "splits the base reduction over K in two from " + std::to_string(kSplitKFromRows) + " rows on");
  }
  probes.template add<probes::RankPathDropsLastColumn>(
      "probe-rank-path-drops-b-column",
      "above rank " + std::to_string(kRankPathAbove) + " leaves out the last column of B");
  if (forward)
    probes.template add<probes::PlanSwitchAtRows>(
        "probe-plan-switch-at-64-rows",
        "one plan for 2.." + std::to_string(kPlanSwitchRows) + " rows, a split-K above them and for one row");
  probes.template add<probes::Bf16Accumulation>("probe-bf16-accumulation", "accumulates every reduction in bf16");
  probes.template add<probes::TruncatingConversion>("probe-truncating-bf16", "converts float32 to bf16 by truncation");
}

}  // namespace parity::ops::lora_forward
