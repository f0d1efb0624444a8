#pragma once
// The HTML page of `parity trajectory`: single vs batched sampling, readable without its JSON.
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// A self-contained page (html_page) for a "parity.trajectory/1" report: the run's settings
// (mode, bindings, seeds, steps, tokens, batch) and verdict; a table of the seeds with the
// first diverging step or "bitwise equal at every step"; one log-scale plot per sample of the
// video and audio velocity max-abs gap per step (zeros on the "0 = bitwise equal" row); the
// per-step values; and, when `divergence` is an object, its section (divergence_html). Then
// the reproducer path.
//
// Plots on the page: one per entry of `samples`, plus one when the divergence has arms.
// Lenient: a missing field reads "missing", a value of an unexpected type is shown as its JSON,
// nan and inf are printed as text and left out of the plots; it never throws on a JSON value.
std::string render_trajectory_html(const nlohmann::json& report);

}  // namespace parity::report
