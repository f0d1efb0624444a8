#include <parity/report/trajectory_divergence.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <parity/report/field_text.hpp>
#include <parity/report/html_blocks.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/log_plot.hpp>

namespace parity::report {
namespace {

constexpr std::size_t kGrowthShown = 10;

std::string flipped_table(const json& div) {
  const json& flipped = array_member(div, "flipped_elements");
  std::vector<Row> rows;
  for (const auto& f : flipped)
    rows.push_back({display_member(f, "index"), display_member(f, "single_bf16"), display_member(f, "batched_bf16"),
                    display_member_exact(f, "single_value"), display_member_exact(f, "batched_value")});
  std::string out = "<h3>Elements that rounded differently to bf16 at the step's entry</h3>\n";
  if (rows.empty()) return out + "<p>None listed.</p>\n";
  out += html_table({"index", "single bf16", "batched bf16", "single value", "batched value"}, rows);
  const auto count = number(member_or_null(div, "flipped_count"));
  if (count && *count > static_cast<double>(rows.size()))
    out += "<p>The first " + std::to_string(rows.size()) + " of " + format_exact(*count) + " are listed.</p>\n";
  return out;
}

std::string block_plot(const json& div, const json& arms) {
  LogPlot plot{"seed " + display_member(div, "seed") + ", step " + display_member(div, "step") +
                   ": relative difference after each block",
               "block",
               "relative difference",
               "0 = identical",
               {}};
  for (const auto& [name, arm] : arms.items()) {
    PlotSeries series{"arm " + name, {}};
    double block = 0;
    for (const auto& v : array_member(arm, "per_block_rel_diff"))
      series.points.push_back({block++, number(v).value_or(std::numeric_limits<double>::quiet_NaN())});
    plot.series.push_back(std::move(series));
  }
  return render_log_plot(plot);
}

std::string ends_of(const json& arm) {
  const json& per_block = array_member(arm, "per_block_rel_diff");
  if (per_block.empty()) return "missing";
  return display(per_block.front()) + " &rarr; " + display(per_block.back());
}

std::string arms_table(const json& arms) {
  std::vector<Row> rows;
  for (const auto& [name, arm] : arms.items())
    rows.push_back({markup_escaped(name), display_member(arm, "description"), display_member(arm, "video_max_abs_diff"),
                    display_member(arm, "audio_max_abs_diff"), ends_of(arm)});
  return html_table({"arm", "what it runs", "video velocity max abs diff", "audio velocity max abs diff",
                     "relative difference, first &rarr; last block"},
                    rows);
}

// The growth factors, largest first (nan and inf at the end, shown as text).
std::string growth_table(const json& div) {
  std::vector<const json*> growth;
  for (const auto& g : array_member(div, "growth")) growth.push_back(&g);
  auto key = [](const json* g) {
    const double f = number(member_or_null(*g, "factor")).value_or(std::numeric_limits<double>::quiet_NaN());
    return std::isfinite(f) ? f : -std::numeric_limits<double>::infinity();
  };
  std::stable_sort(growth.begin(), growth.end(), [&](const json* a, const json* b) { return key(a) > key(b); });
  std::vector<Row> rows;
  for (std::size_t i = 0; i < growth.size() && i < kGrowthShown; ++i)
    rows.push_back(
        {display_member(*growth[i], "arm"), display_member(*growth[i], "block"), display_member(*growth[i], "factor")});
  std::string out = "<h3>Largest growth of the relative difference over one block</h3>\n";
  if (rows.empty()) return out + "<p>None listed.</p>\n";
  return out + html_table({"arm", "block", "factor"}, rows);
}

// What each threshold of the conclusion means (families/trajectory/trajectory_analysis.cpp).
// gap X: the larger of arm X's video and audio velocity max abs differences.
const char* threshold_meaning(const std::string& name) {
  if (name == "p_matches_a")
    return "flipped_elements needs |gap P &minus; gap A| &le; this &times; gap A: setting only the flipped "
           "elements to their batched values reproduces the whole gap";
  if (name == "layout_small")
    return "flipped_elements needs arms B and C (both layouts fed one input) within this &times; gap A; layouts "
           "needs gap P within it (or no flipped element)";
  if (name == "layout_large")
    return "layouts needs the larger of gap B and gap C at least this &times; gap A: the layouts differ on their "
           "own, fed the same input";
  return "not described by this version of parity";
}

std::string thresholds_table(const json& thresholds) {
  if (!thresholds.is_object() || thresholds.empty()) return "";
  std::vector<Row> rows;
  for (const auto& [name, value] : thresholds.items())
    rows.push_back({"<code>" + markup_escaped(name) + "</code>", display(value), threshold_meaning(name)});
  return "<h3>Thresholds of the conclusion</h3>\n<p>gap X is the larger of arm X's video and audio velocity max "
         "abs differences. The conclusion is the first that holds: <code>no_gap</code> (gap A = 0), "
         "<code>flipped_elements</code>, <code>layouts</code>, else <code>both</code>.</p>\n" +
         html_table({"threshold", "value", "meaning"}, rows);
}

}  // namespace

std::string divergence_html(const nlohmann::json& div) {
  std::string out =
      "<h2>Divergence: seed " + display_member(div, "seed") + ", step " + display_member(div, "step") + "</h2>\n";
  out += html_settings({{"latent elements", display_member(div, "latent_elements")},
                        {"latent max abs diff at entry", display_member(div, "latent_max_abs_diff_at_entry")},
                        {"elements rounded differently (bf16)", display_member(div, "flipped_count")},
                        {"blocks", display_member(div, "blocks")}});
  out += flipped_table(div);
  const json& arms = member_or_null(div, "arms");
  out += "<h3>Per-block relative difference by arm</h3>\n";
  if (arms.is_object() && !arms.empty()) out += block_plot(div, arms) + arms_table(arms);
  else out += "<p>No per-arm data.</p>\n";
  out += growth_table(div);
  out += "<h3>Conclusion</h3>\n<p class=\"verdict\">" + display_member(div, "conclusion_text") +
         "</p>\n<p>code: <code>" + display_member(div, "conclusion") + "</code></p>\n";
  return out + thresholds_table(member_or_null(div, "thresholds"));
}

}  // namespace parity::report
