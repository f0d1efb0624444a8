#pragma once
// The gate's `runtime_modes`, `model` and `model_checks` sections (docs/reference.md, "model"):
// the model at the reference figures' token counts (12, 925 and 4253) under off, strict, strict
// (repeat), audit and the two ablations (node:attention, boundary:token_refiner), with the
// relative differences of the video and audio outputs, the input gradient and the log-prob to
// the pure LibTorch run, every boundary's binding and, under `reference`, the report's own
// figures for the row (docs/reference/figures.json).
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parity::properties::model {

// {"strict": {"mode", "bind", "fail_on_fallback", "report_only", "self_check"}, ...}
nlohmann::json runtime_modes_section();

// The token counts of the reference figures (properties/gate_figures.hpp); `quick` keeps the
// first only. Throws InputError naming the figures file and the entry for a count outside the
// model family's limits.
std::vector<std::int64_t> gate_token_counts(bool quick);

struct ModelGateSection {
  nlohmann::json rows = nlohmann::json::array();
  nlohmann::json checks = nlohmann::json::object();  // per token count
  bool all_hold = true;
};

// Runs on the model subject `subject` ("runtime-host" or "runtime-cuda"); `quick` keeps 12
// tokens only; `bind_video_projections` also binds proj_in and proj_out in the bound variants
// (the reference's "diag" arm); progress lines go to `log`.
ModelGateSection run_model_gate(const std::string& subject, bool quick, bool bind_video_projections, std::ostream* log);

}  // namespace parity::properties::model
