#pragma once
// The HTML page of `parity trajectory`: single vs batched sampling, readable without its JSON.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// The body of the page for a "parity.trajectory/1" report, in reading order: the conclusion
// (the verdict, the divergence analysis' explanation, and the reproducer: its path relative to
// `page_dir` and the command that replays it, reproducer_link.hpp); the run's settings (mode,
// bindings, seeds, steps, tokens, batch); a table of the seeds with the first diverging step or
// "bitwise equal at every step"; two log-scale plots, video and audio velocity max-abs gap per
// step, each with every seed overlaid and a legend (zeros on the "0 = bitwise equal" row); the
// per-step values; and, when `divergence` is an object, its section (divergence_html), whose
// thresholds are explained there. Numbers are shown to 4 significant digits (format_measure),
// the exact value in each one's hover title.
//
// Plots: two when `samples` is a non-empty array, plus one when the divergence has arms.
// Lenient: a missing field reads "missing", a value of an unexpected type is shown as its JSON,
// nan and inf are printed as text and left out of the plots; it never throws on a JSON value.
std::string trajectory_body(const nlohmann::json& report, const std::filesystem::path& page_dir);

// trajectory_body as a self-contained page (html_page) titled "parity trajectory".
std::string render_trajectory_html(const nlohmann::json& report, const std::filesystem::path& page_dir = {});

}  // namespace parity::report
