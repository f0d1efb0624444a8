// The trajectory page's text and structure, without a browser: escaping, non-finite values
// as text, one plot per sample plus one for the arms, and no throw on degenerate reports.
// trajectory_report_test.sh checks that a real browser draws the plots.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "report/html_text.hpp"
#include "report/log_plot.hpp"
#include "report/trajectory_html.hpp"

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
    steps.push_back({{"step", i}, {"video_velocity_max_abs_diff", video_gaps[i]}, {"audio_velocity_max_abs_diff", 0.0}});
  return {{"seed", seed}, {"first_diverging_step", nullptr}, {"steps", steps}};
}

TEST(HtmlText, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(escape_html("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(HtmlText, NumbersAreExactAndNonFiniteIsText) {
  EXPECT_EQ(format_exact(0.408203125), "0.408203125");
  EXPECT_EQ(format_exact(NAN), "nan");
  EXPECT_EQ(format_exact(-INFINITY), "-inf");
  EXPECT_EQ(format_short(INFINITY), "inf");
}

TEST(LogPlot, ZerosGoToTheZeroRowAndNonFiniteIsLeftOut) {
  const std::string svg = render_log_plot({"t", "x", "y", "0 = bitwise equal", {{"s", {{0, 0.0}, {1, 1e-3}, {2, NAN}}}}});
  EXPECT_EQ(count(svg, "<circle class=\"data\""), 2u);
  EXPECT_NE(svg.find("0 = bitwise equal"), std::string::npos);
  EXPECT_NE(svg.find("1 value(s) not finite"), std::string::npos);
  EXPECT_NE(svg.find(">-3</tspan>"), std::string::npos);  // a tick at 10^-3
}

TEST(LogPlot, AllZerosAreDrawnAndSaidToBeZero) {
  const std::string svg = render_log_plot({"t", "x", "y", "0 = bitwise equal", {{"s", {{0, 0.0}}}}});
  EXPECT_EQ(count(svg, "<circle class=\"data\""), 1u);
  EXPECT_NE(svg.find("every plotted value is 0"), std::string::npos);
  EXPECT_EQ(svg.find("</tspan>"), std::string::npos);  // no decade ticks without a positive value
}

TEST(LogPlot, NothingPlottableDrawsNoDataMarks) {
  const std::string svg = render_log_plot({"t", "x", "y", "", {{"s", {{0, NAN}, {1, INFINITY}}}}});
  EXPECT_EQ(count(svg, "class=\"data\""), 0u);
  EXPECT_NE(svg.find("no plottable values"), std::string::npos);
}

TEST(TrajectoryHtml, OnePlotPerSamplePlusOneForTheArms) {
  json report = {{"samples", {sample(11, {0.0, 0.0}), sample(33, {0.0, 0.62})}},
                 {"divergence", {{"seed", 33}, {"arms", {{"A", {{"per_block_rel_diff", {1e-7, 3e-5}}}}}}}}};
  EXPECT_EQ(count(render_trajectory_html(report), "<figure class=\"plot\""), 3u);
  report["divergence"] = nullptr;
  const std::string page = render_trajectory_html(report);
  EXPECT_EQ(count(page, "<figure class=\"plot\""), 2u);
  EXPECT_NE(page.find("bitwise equal at every step"), std::string::npos);
}

TEST(TrajectoryHtml, TextIsEscapedAndNonFiniteIsPrinted) {
  const json report = {{"bindings", "<script>x</script>"}, {"samples", {sample(5, {"nan", "inf"})}}};
  const std::string page = render_trajectory_html(report);
  EXPECT_EQ(page.find("<script>x"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;x"), std::string::npos);
  EXPECT_NE(page.find("<td>nan</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>inf</td>"), std::string::npos);
}

TEST(TrajectoryHtml, DegenerateReportsDoNotThrow) {
  for (const json& report : {json(), json(42), json::object(), json({{"samples", "x"}, {"divergence", {{"arms", 1}}}}),
                             json({{"samples", {{{"steps", {{{"step", 0}}}}}}}})})
    EXPECT_NE(render_trajectory_html(report).find("render-check"), std::string::npos) << report.dump();
}

}  // namespace
}  // namespace parity::report
