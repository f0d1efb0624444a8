#pragma once
// The divergence section of the `parity trajectory` page: where single and batched sampling
// first parted, and what the arms of the probe showed.
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// HTML for the report's `divergence` object: its seed and step, the latent max abs diff at
// the step's entry, the table of bf16 elements that rounded differently (flipped elements),
// a log-scale plot of the per-block relative difference with one line per arm (when `arms`
// is an object with per_block_rel_diff arrays), the arm summaries, the largest growth
// factors, the conclusion, and its thresholds with what each one decides. Lenient as
// render_trajectory_html.
std::string divergence_html(const nlohmann::json& divergence);

}  // namespace parity::report
