#include <parity/report/trajectory_html.hpp>

#include <cmath>
#include <limits>

#include <parity/report/field_text.hpp>
#include <parity/report/html_blocks.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/log_plot.hpp>
#include <parity/report/page.hpp>
#include <parity/report/reproducer_link.hpp>
#include <parity/report/trajectory_divergence.hpp>

namespace parity::report {
namespace {

const json& steps_of(const json& sample) { return array_member(sample, "steps"); }

std::string seeds_text(const json& seeds) {
  if (!seeds.is_array()) return display(seeds);
  std::string out;
  for (const auto& s : seeds) out += (out.empty() ? "" : ", ") + display(s);
  return out;
}

std::string verdict(const json& report) {
  const json& all_equal = member_or_null(report, "all_steps_bitwise_equal");
  const json& div = member_or_null(report, "divergence");
  if (all_equal == true)
    return "<p class=\"verdict equal\">Every step of every seed is bitwise equal between the single and "
           "batched layouts.</p>\n";
  if (all_equal == false) {
    std::string where = div.is_object()
                            ? ": first at seed " + display_member(div, "seed") + ", step " + display_member(div, "step")
                            : "";
    return "<p class=\"verdict diverged\">The single and batched layouts diverged" + where + ".</p>\n";
  }
  return "<p class=\"verdict\">Verdict: all_steps_bitwise_equal is " +
         display_member(report, "all_steps_bitwise_equal") + ".</p>\n";
}

// The conclusion first: the verdict, the divergence analysis' explanation, and the reproducer.
std::string conclusion(const json& report, const std::filesystem::path& page_dir) {
  std::string out =
      "<h1>parity trajectory: single vs batched sampling</h1>\n<section class=\"conclusion\">\n" + verdict(report);
  const json& div = member_or_null(report, "divergence");
  if (div.is_object())
    out += "<p>" + display_member(div, "conclusion_text") + " (conclusion <code>" + display_member(div, "conclusion") +
           "</code>; its thresholds are explained under Divergence.)</p>\n";
  out +=
      "<h2>Reproducer</h2>\n" + reproducer_html(member_or_null(report, "reproducer"),
                                                member_or_null(member_or_null(report, "shrunk"), "replay"), page_dir);
  return out + "</section>\n";
}

std::string settings(const json& report) {
  return "<h2>Run</h2>\n" + html_settings({{"schema", display_member(report, "schema")},
                                           {"mode", display_member(report, "mode")},
                                           {"bindings", display_member(report, "bindings")},
                                           {"seeds", seeds_text(member_or_null(report, "seeds"))},
                                           {"steps", display_member(report, "steps")},
                                           {"tokens", display_member(report, "tokens")},
                                           {"batch", display_member(report, "batch")}});
}

// The largest finite value of `key` over the steps, with a count of the values that are not.
std::string largest(const json& steps, const char* key) {
  double best = -std::numeric_limits<double>::infinity();
  int non_finite = 0;
  for (const auto& step : steps) {
    const auto v = number(member_or_null(step, key));
    if (!v) continue;
    if (std::isfinite(*v)) best = std::max(best, *v);
    else ++non_finite;
  }
  std::string out = std::isfinite(best) ? format_measure(best) : "none finite";
  if (non_finite) out += " (+" + std::to_string(non_finite) + " nan/inf)";
  return out;
}

// The first step whose bf16 input flipped; else the first step with unequal velocities (the
// layouts' own gap, no flip); else bitwise equal.
std::string first_diverging(const json& sample) {
  const json& first = member_or_null(sample, "first_diverging_step");
  if (!sample.is_object() || !sample.contains("first_diverging_step")) return "missing";
  if (!first.is_null()) return "step " + display(first) + " (bf16 input flipped)";
  const json& unequal = member_or_null(sample, "first_unequal_step");
  if (!unequal.is_null()) return "none; velocities unequal from step " + display(unequal) + " (no bf16 flip)";
  return "bitwise equal at every step";
}

std::string seeds_table(const json& samples) {
  std::vector<Row> rows;
  for (const auto& s : samples) {
    const json& steps = steps_of(s);
    rows.push_back({display_member(s, "seed"), first_diverging(s), std::to_string(steps.size()),
                    largest(steps, "video_velocity_max_abs_diff"), largest(steps, "audio_velocity_max_abs_diff")});
  }
  return html_table(
      {"seed", "first diverging step", "steps recorded", "largest video velocity gap", "largest audio velocity gap"},
      rows);
}

PlotSeries step_series(const json& sample, const char* key) {
  PlotSeries series{"seed " + display_member_exact(sample, "seed"), {}};
  double index = 0;
  for (const auto& step : steps_of(sample)) {
    const double x = number(member_or_null(step, "step")).value_or(index);
    const auto y = number(member_or_null(step, key));
    series.points.push_back({x, y.value_or(std::numeric_limits<double>::quiet_NaN())});
    ++index;
  }
  return series;
}

// One plot per velocity (video, audio), the seeds overlaid on it.
std::string step_plots(const json& samples) {
  std::string out =
      "<h2>Velocity gap per step</h2>\n<p>Max abs difference of the velocity between the single "
      "and batched layouts at each sampling step, one line per seed. 0 = bitwise equal.</p>\n";
  if (samples.empty()) return out;
  for (const auto& [velocity, key] :
       {std::pair{"video", "video_velocity_max_abs_diff"}, std::pair{"audio", "audio_velocity_max_abs_diff"}}) {
    LogPlot plot{std::string(velocity) + " velocity: max-abs gap per step",
                 "step",
                 "max abs difference",
                 "0 = bitwise equal",
                 {}};
    for (const auto& s : samples) plot.series.push_back(step_series(s, key));
    out += render_log_plot(plot);
  }
  return out;
}

std::string step_table(const json& samples) {
  constexpr std::size_t kOpenStepRows = 30;
  std::vector<Row> rows;
  for (const auto& s : samples)
    for (const auto& step : steps_of(s))
      rows.push_back({display_member(s, "seed"), display_member(step, "step"), display_member(step, "sigma"),
                      display_member(step, "video_velocity_max_abs_diff"),
                      display_member(step, "audio_velocity_max_abs_diff"), display_member(step, "bitwise_equal")});
  // Open when short enough to read at a glance: it holds the nan and inf the plots leave out.
  const char* open = rows.size() <= kOpenStepRows ? "<details open>" : "<details>";
  return open + ("<summary>Per-step values (" + std::to_string(rows.size()) + " rows)</summary>\n") +
         html_table({"seed", "step", "sigma", "video velocity gap", "audio velocity gap", "bitwise equal"}, rows) +
         "</details>\n";
}

}  // namespace

std::string trajectory_body(const nlohmann::json& report, const std::filesystem::path& page_dir) {
  const json& samples = array_member(report, "samples");
  std::string body = conclusion(report, page_dir) + settings(report);
  body += "<h2>Seeds</h2>\n" + seeds_table(samples);
  if (samples.empty()) body += "<p>No samples: samples is " + display_member(report, "samples") + ".</p>\n";
  body += step_plots(samples) + step_table(samples);
  const json& div = member_or_null(report, "divergence");
  if (div.is_object()) body += divergence_html(div);
  return body;
}

std::string render_trajectory_html(const nlohmann::json& report, const std::filesystem::path& page_dir) {
  return html_page("parity trajectory", trajectory_body(report, page_dir));
}

}  // namespace parity::report
