// The trajectory page's text and structure, without a browser: the conclusion first, numbers
// to 4 digits, the seeds overlaid on one plot per velocity plus one for the arms, the reproducer
// relative to the page, the thresholds explained, escaping, non-finite values as text, and no
// throw on degenerate reports.
// trajectory_report_test.sh checks that a real browser draws the plots.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <parity/properties/tests/holds_text.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/log_plot.hpp>
#include <parity/report/trajectory_html.hpp>

namespace parity::report {
namespace {

using nlohmann::json;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

json sample(int seed, json video_gaps) {
  json steps = json::array();
  for (std::size_t i = 0; i < video_gaps.size(); ++i)
    steps.push_back(
        {{"step", i}, {"video_velocity_max_abs_diff", video_gaps[i]}, {"audio_velocity_max_abs_diff", 0.0}});
  return {{"seed", seed}, {"first_diverging_step", nullptr}, {"steps", steps}};
}

TEST(HtmlText, NumbersAreExactAndNonFiniteIsText) {
  EXPECT_EQ(format_exact(0.408203125), "0.408203125");
  EXPECT_EQ(format_exact(NAN), "nan");
  EXPECT_EQ(format_exact(-INFINITY), "-inf");
  EXPECT_EQ(format_short(INFINITY), "inf");
}

TEST(LogPlot, ZerosGoToTheZeroRowAndNonFiniteIsLeftOut) {
  const std::string svg =
      render_log_plot({"t", "x", "y", "0 = bitwise equal", {{"s", {{0, 0.0}, {1, 1e-3}, {2, NAN}}}}});
  EXPECT_EQ(count(svg, "<circle class=\"data\""), 2u);
  EXPECT_TRUE(holds_text(svg, "0 = bitwise equal"));
  EXPECT_TRUE(holds_text(svg, "1 value(s) not finite"));
  EXPECT_TRUE(holds_text(svg, ">-3</tspan>"));  // a tick at 10^-3
}

TEST(LogPlot, AllZerosAreDrawnAndSaidToBeZero) {
  const std::string svg = render_log_plot({"t", "x", "y", "0 = bitwise equal", {{"s", {{0, 0.0}}}}});
  EXPECT_EQ(count(svg, "<circle class=\"data\""), 1u);
  EXPECT_TRUE(holds_text(svg, "every plotted value is 0"));
  EXPECT_FALSE(holds_text(svg, "</tspan>"));  // no decade ticks without a positive value
}

TEST(LogPlot, NothingPlottableDrawsNoDataMarks) {
  const std::string svg = render_log_plot({"t", "x", "y", "", {{"s", {{0, NAN}, {1, INFINITY}}}}});
  EXPECT_EQ(count(svg, "class=\"data\""), 0u);
  EXPECT_TRUE(holds_text(svg, "no plottable values"));
}

// The <figure class="plot"> elements of `page`, in order.
std::vector<std::string> plots_of(const std::string& page) {
  std::vector<std::string> plots;
  for (auto at = page.find("<figure class=\"plot\""); at != std::string::npos;
       at = page.find("<figure class=\"plot\"", at + 1))
    plots.push_back(page.substr(at, page.find("</figure>", at) - at));
  return plots;
}

TEST(TrajectoryHtml, SeedsOverlaidOnOnePlotPerVelocityPlusOneForTheArms) {
  json report = {{"samples", {sample(11, {0.0, 0.0}), sample(33, {0.0, 0.62})}},
                 {"divergence", {{"seed", 33}, {"arms", {{"A", {{"per_block_rel_diff", {1e-7, 3e-5}}}}}}}}};
  const auto plots = plots_of(render_trajectory_html(report));
  ASSERT_EQ(plots.size(), 3u);
  for (std::size_t i = 0; i < 2; ++i) {  // video, then audio: both seeds on each, named in its legend
    EXPECT_TRUE(holds_text(plots[i], ">seed 11</text>")) << plots[i];
    EXPECT_TRUE(holds_text(plots[i], ">seed 33</text>")) << plots[i];
    EXPECT_EQ(count(plots[i], "<polyline class=\"data\""), 2u);
  }
  EXPECT_TRUE(holds_text(plots[0], "video velocity"));
  EXPECT_TRUE(holds_text(plots[1], "audio velocity"));
  report["divergence"] = nullptr;
  const std::string page = render_trajectory_html(report);
  EXPECT_EQ(plots_of(page).size(), 2u);
  EXPECT_TRUE(holds_text(page, "bitwise equal at every step"));
}

TEST(TrajectoryHtml, ConclusionComesFirst) {
  const json report = {
      {"all_steps_bitwise_equal", false},
      {"mode", "strict"},
      {"samples", {sample(33, {0.0, 0.62})}},
      {"divergence", {{"seed", 33}, {"step", 1}, {"conclusion", "layouts"}, {"conclusion_text", "THE EXPLANATION"}}}};
  const std::string page = render_trajectory_html(report);
  const auto explanation = page.find("THE EXPLANATION"), verdict = page.find("diverged: first at seed 33, step 1");
  ASSERT_NE(explanation, std::string::npos);
  ASSERT_NE(verdict, std::string::npos);
  for (const char* later : {"<h2>Run</h2>", "<h2>Seeds</h2>", "<figure class=\"plot\""})
    EXPECT_LT(explanation, page.find(later)) << later;
  EXPECT_LT(verdict, explanation);
}

TEST(TrajectoryHtml, MeasuredNumbersHaveFourSignificantDigitsAndTheExactValueInTheTitle) {
  const std::string page = render_trajectory_html({{"samples", {sample(20261129, {0.6215000152587891})}}});
  EXPECT_TRUE(holds_text(page, "<span title=\"0.6215000152587891\">0.6215</span>"));
  EXPECT_FALSE(holds_text(page, ">0.6215000152587891<"));
  EXPECT_TRUE(holds_text(page, "<td>20261129</td>"));  // integers in full
}

TEST(TrajectoryHtml, ReproducerIsLinkedRelativeToThePageWithItsReplayCommand) {
  const json report = {{"reproducer", "reports/repros/t.json"},
                       {"shrunk", {{"replay", "parity replay reports/repros/t.json"}}}};
  const std::string page = render_trajectory_html(report, "reports/html");
  EXPECT_TRUE(holds_text(page, "<a href=\"../repros/t.json\">"));
  EXPECT_TRUE(holds_text(page, "parity replay ../repros/t.json"));
  EXPECT_TRUE(holds_text(page, "parity replay reports/repros/t.json"));  // as recorded
  EXPECT_TRUE(holds_text(render_trajectory_html(report), "<a href=\"reports/repros/t.json\">"));
  EXPECT_TRUE(holds_text(render_trajectory_html(json::object(), "x"), "No reproducer"));
}

TEST(TrajectoryHtml, ThresholdsSayWhatTheyDecide) {
  const json report = {{"divergence", {{"thresholds", {{"p_matches_a", 0.5}, {"someday", 1}}}}}};
  const std::string page = render_trajectory_html(report);
  const auto row = page.find("<code>p_matches_a</code>");
  ASSERT_NE(row, std::string::npos);
  EXPECT_TRUE(holds_text(page, "reproduces the whole gap", row));
  EXPECT_TRUE(holds_text(page, "not described by this version of parity", page.find("someday")));
}

TEST(TrajectoryHtml, TextIsEscapedAndNonFiniteIsPrinted) {
  const json report = {{"bindings", "<script>x</script>"}, {"samples", {sample(5, {"nan", "inf"})}}};
  const std::string page = render_trajectory_html(report);
  EXPECT_FALSE(holds_text(page, "<script>x"));
  EXPECT_TRUE(holds_text(page, "&lt;script&gt;x"));
  EXPECT_TRUE(holds_text(page, "<td>nan</td>"));
  EXPECT_TRUE(holds_text(page, "<td>inf</td>"));
}

TEST(TrajectoryHtml, DegenerateReportsDoNotThrow) {
  for (const json& report : {json(), json(42), json::object(), json({{"samples", "x"}, {"divergence", {{"arms", 1}}}}),
                             json({{"samples", {{{"steps", {{{"step", 0}}}}}}}})})
    EXPECT_TRUE(holds_text(render_trajectory_html(report), "render-check")) << report.dump();
}

}  // namespace
}  // namespace parity::report
