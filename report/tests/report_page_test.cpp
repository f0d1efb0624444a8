// The page of `parity report` without a browser: the status each kind of row reads as, the
// conclusion of each kind of report, a card per failing row first (its case in one line, its
// reproducer, replay and rerun, its element map drawn), unknown fields shown, findings never
// counted, numbers readable. report_page_test.sh opens real pages in chromium.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <parity/core/element_map.hpp>
#include <parity/core/verdict.hpp>
#include <parity/properties/tests/holds_text.hpp>
#include <parity/report/field_text.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/json_sections.hpp>
#include <parity/report/report_page.hpp>
#include <parity/report/result_status.hpp>

namespace parity::report {
namespace {

using nlohmann::json;

TEST(RowStatus, ReadsEachCommandsFields) {
  EXPECT_EQ(row_status({{"outcome", "holds"}}), Status::holds);
  EXPECT_EQ(row_status({{"verdict", {{"outcome", "fails"}, {"failure", "value"}}}}), Status::fails);
  EXPECT_EQ(row_status({{"kind", "threw"}}), Status::fails);
  for (const FailureKind k : failure_kinds())  // every kind's name is a failure, crashed and hung too
    EXPECT_EQ(row_status({{"kind", failure_kind_name(k)}}), Status::fails) << failure_kind_name(k);
  EXPECT_EQ(row_status({{"kind", "not_applicable"}}), Status::skipped);
  EXPECT_EQ(row_status({{"passed", false}}), Status::fails);
  EXPECT_EQ(row_status({{"detected_by", nullptr}}), Status::fails);
  EXPECT_EQ(row_status({{"detected_by", "forward_accuracy"}}), Status::holds);
  EXPECT_EQ(row_status({{"failures", json::array()}}), Status::holds);
  EXPECT_EQ(row_status({{"failures", {"x"}}}), Status::fails);
  EXPECT_EQ(row_status({{"kind", "a kind from the future"}}), Status::unknown);
  // check/probes/replay --json: failed and skipped decide; kind is null when it holds.
  EXPECT_EQ(row_status({{"status", "passes_now"}, {"failed", false}, {"skipped", false}, {"kind", nullptr}}),
            Status::holds);
  EXPECT_EQ(row_status({{"status", "still_fails"}, {"failed", true}, {"skipped", false}, {"kind", "value"}}),
            Status::fails);
  EXPECT_EQ(row_status({{"status", "not_applicable"}, {"failed", false}, {"skipped", true}}), Status::skipped);
  EXPECT_EQ(row_status({{"status", "holds"}, {"kind", nullptr}}), Status::holds);
  EXPECT_EQ(row_status(json(3)), Status::unknown);
}

TEST(RowStatus, FindingsAreNeverCounted) {
  const json doc = {{"rows", {{{"failures", json::array()}}}}, {"findings", {{"torch", {{{"failures", {"x"}}}}}}}};
  const Tally t = tally_rows(doc);
  EXPECT_EQ(t.holds, 1);
  EXPECT_EQ(t.fails, 0);
}

TEST(Conclusion, SaysWhatEachKindOfReportConcludes) {
  const std::pair<json, std::string> reports[] = {
      {{{"all_hold", true}}, "every check of parity's kernels holds"},
      {{{"all_hold", false}, {"rows", {{{"failures", {"x"}}}}}}, "1 failing row"},
      {{{"probes", {{{"detected_by", nullptr}}, {{"detected_by", "p"}}}}}, "1 of 2 probes not detected"},
      {{{"results", {{{"kind", "holds"}}, {{"kind", "skipped"}}}}}, "all 1 results hold</span> (1 skipped"},
      {{{"schema", "parity.trajectory/1"}, {"all_steps_bitwise_equal", false}}, "diverged"},
      {{{"schema", "parity.repro/1"}, {"property", "repeatable"}, {"subject", "s"}}, "repeatable failed on s"},
      {json::object(), "no verdict"}};
  for (const auto& [doc, says] : reports) EXPECT_TRUE(holds_text(conclusion_sentence(doc), says)) << doc.dump();
}

TEST(ReportPage, FailuresComeFirstWithReproducerRelativeToThePageAndReplay) {
  const json doc = {{"results",
                     {{{"property", "repeatable"}, {"kind", "holds"}},
                      {{"property", "rows_independent"},
                       {"subject", "mine"},
                       {"kind", "value"},
                       {"case", "lora T=2"},
                       {"reproducer", "reports/repros/r.json"},
                       {"replay", "parity replay reports/repros/r.json"},
                       {"unknown_field", {{"deep", 1}}}}}}};
  const std::string page = render_report_page({{"check.json", doc}}, "reports/html");
  const auto conclusion = page.find("1 of 2 results fail");
  ASSERT_NE(conclusion, std::string::npos);
  const auto card = page.find("<article class=\"card\">");
  ASSERT_NE(card, std::string::npos);
  EXPECT_LT(conclusion, card);
  EXPECT_LT(card, page.find("<table>"));
  for (const char* in_card :
       {"<span class=\"property\">rows_independent</span> &middot; <span class=\"subject\">mine</span> "
        "<span class=\"kind\">a wrong value</span>",
        "<code class=\"case\">lora T=2</code>", "<a href=\"../repros/r.json\">",
        "<pre class=\"command\"><code class=\"command\">parity replay reports/repros/r.json</code></pre>"})
    EXPECT_TRUE(holds_text(page, in_card, card));
  EXPECT_TRUE(holds_text(page, "unknown_field"));  // shown, not dropped
  EXPECT_TRUE(holds_text(page, "{&quot;deep&quot;:1}"));
}

// A check record's card: the one-line case, what broke, the rerun command, and the map's SVG with
// the differing element of the differing row marked.
TEST(ReportPage, ACardDrawsItsMapWithTheDifferingElementMarked) {
  const std::int64_t rows = 4, cols = 3, row = 2, element = 1;
  std::vector<double> bits(rows * cols, 0.0);
  bits[row * cols + element] = 1;
  const json record = {{"family", "softmax"},
                       {"property", "rows_independent"},
                       {"subject", "probe-plan-by-rows"},
                       {"status", "fails"},
                       {"failed", true},
                       {"kind", "value"},
                       {"case_summary", "softmax N=3 T=4 seed=0 probe_row=0"},
                       {"detail", "row 2 of a batch of 4 differs from that row alone"},
                       {"rerun", "parity check softmax --seed 7"},
                       {"map", element_map_to_json(element_map("y", MapMeasure::bits_differ, rows, cols, bits))}};
  const std::string page = render_report_page({{"check.json", {{"results", {record}}}}}, "");
  const auto card = page.find("<article class=\"card\">");
  ASSERT_NE(card, std::string::npos);
  const std::string text = page.substr(card, page.find("</article>", card) - card);
  for (const char* part : {"<code class=\"case\">softmax N=3 T=4 seed=0 probe_row=0</code>",
                           "row 2 of a batch of 4 differs from that row alone",
                           "<code class=\"command\">parity check softmax --seed 7</code>", "<svg"})
    EXPECT_TRUE(holds_text(text, part));
  const std::string mark =
      "data-rows=\"" + std::to_string(row) + "\" data-elements=\"" + std::to_string(element) + "\"";
  EXPECT_TRUE(holds_text(text, mark)) << text;
  std::size_t marks = 0;
  for (auto at = text.find("class=\"data mark\""); at != std::string::npos;
       at = text.find("class=\"data mark\"", at + 1))
    ++marks;
  EXPECT_EQ(marks, 1u);  // the one differing element
  // The table below shows the map folded, not its cells.
  const std::string table = page.substr(page.find("<table>"));
  EXPECT_TRUE(holds_text(table, "map y bits_differ, 4 x 3"));
}

// Every string of a record reaches the card escaped: a subject, detail, case, command or map
// output holding markup shows as text, never as markup.
TEST(ReportPage, ACardEscapesWhatTheRecordSays) {
  const std::string evil = "<b>\"x\" & 'y'</b>";
  const json record = {
      {"family", evil},
      {"property", evil},
      {"subject", evil},
      {"status", "fails"},
      {"failed", true},
      {"kind", "value"},
      {"case_summary", evil},
      {"detail", evil},
      {"rerun", evil},
      {"replay", evil},
      {"map", element_map_to_json(element_map(evil, MapMeasure::bits_differ, 1, 2, std::vector<double>{0.0, 1.0}))}};
  const std::string page = render_report_page({{"check.json", {{"results", {record}}}}}, "");
  EXPECT_FALSE(holds_text(page, "<b>\""));  // markup never raw (the page's own <b> names the file)
  EXPECT_FALSE(holds_text(page, "& '"));
  EXPECT_TRUE(holds_text(page, "&lt;b&gt;"));
}

// An accuracy map: a bar per element, those above the bound (1) marked.
TEST(ReportPage, AnAccuracyMapBarsEachElementAboveTheBound) {
  const std::vector<double> ratio = {0.5, 0.01, 0, 7.5, 0.25};
  const json record = {{"property", "forward_accuracy"},
                       {"failed", true},
                       {"map", element_map_to_json(element_map("y", MapMeasure::error_over_bound, 1, 5, ratio))}};
  const std::string page = render_report_page({{"r.json", {{"results", {record}}}}}, "");
  std::size_t bars = 0, over = 0;
  for (auto at = page.find("class=\"data bar"); at != std::string::npos; at = page.find("class=\"data bar", at + 1)) {
    ++bars;
    const std::string over_class = "class=\"data bar over\"";
    over += page.compare(at, over_class.size(), over_class) == 0;
  }
  EXPECT_EQ(bars, 4u);  // no bar for the zero
  EXPECT_EQ(over, 1u);
  for (const char* part :
       {"class=\"data bar over\" x=\"", "data-elements=\"3\"><title>elements 3: |error| / bound 7.5</title>",
        "<line class=\"bound\""})
    EXPECT_TRUE(holds_text(page, part));
}

// A reproducer's card: its case summarised from dims, seed and probe row, a float32 parameter by
// its shortest text with the exact value in the title, no JSON blob.
TEST(ReportPage, AReproducersCardSummarisesItsCase) {
  const double eps = static_cast<double>(1e-6f);
  const json repro = {{"schema", "parity.repro/1"},
                      {"property", "forward_accuracy"},
                      {"subject", "probe-no-max"},
                      {"case",
                       {{"family", "softmax"},
                        {"seed", 5u},
                        {"probe_row", 1},
                        {"dims", {{"N", 3}, {"T", 2}}},
                        {"params", {{"eps", eps}}}}},
                      {"observed",
                       {{"property", "forward_accuracy"},
                        {"outcome", "fails"},
                        {"failure", "value"},
                        {"detail", "y[1, 0] outside its bound"}}}};
  const std::string page = render_report_page({{"repros/r.json", repro}}, "");
  const auto card = page.find("<article class=\"card\">");
  ASSERT_NE(card, std::string::npos);
  const std::string text = page.substr(card, page.find("</article>", card) - card);
  for (const char* part :
       {"<code class=\"case\">softmax N=3 T=2 seed=5 probe_row=1</code>", "parity replay repros/r.json"})
    EXPECT_TRUE(holds_text(text, part)) << text;
  EXPECT_TRUE(holds_text(text, "eps=<span title=\"" + format_exact(eps) + "\">1e-06</span>")) << text;
  EXPECT_FALSE(holds_text(text, "&quot;dims&quot;"));
  json named = repro;  // an op family's detail names the parameters: not shown twice
  named["observed"]["detail"] = "y[1, 0] outside its bound (case params: eps=9.99999997e-07)";
  EXPECT_FALSE(holds_text(render_report_page({{"repros/r.json", named}}, ""), "<span class=\"params\">"));
}

TEST(FieldText, AFloat32ShowsItsShortestTextAndOtherNumbersFourDigits) {
  EXPECT_EQ(format_value(static_cast<double>(1e-6f)), "1e-06");
  EXPECT_EQ(format_value(static_cast<double>(1.2345678f)), "1.2345678");
  EXPECT_EQ(format_value(0.0123456789), "0.01235");  // not a float32
  EXPECT_EQ(format_value(384), "384");
  EXPECT_EQ(display(json(static_cast<double>(0.1f))),
            "<span title=\"" + format_exact(static_cast<double>(0.1f)) + "\">0.1</span>");
  EXPECT_EQ(display(json(0.5)), "0.5");
}

TEST(JsonSections, AbsentValuesAreADashAndACaseItsSummary) {
  const json rows = {{{"property", "p"},
                      {"kind", nullptr},
                      {"case", {{"family", "softmax"}, {"seed", 1u}, {"probe_row", 0}, {"dims", {{"T", 2}}}}}}};
  const std::string table = rows_table(rows, "");
  EXPECT_FALSE(holds_text(table, ">null<"));
  EXPECT_TRUE(holds_text(table, "&ndash;"));
  EXPECT_TRUE(holds_text(table, "<code class=\"case\">softmax T=2 seed=1 probe_row=0</code><details>")) << table;
}

TEST(JsonSections, ColumnsNameTheResultFirstAndReproducerLast) {
  const std::string table = rows_table({{{"zeta", 1}, {"replay", "r"}, {"reproducer", "p"}, {"property", "q"}}}, "");
  const auto result = table.find("<th>result</th>"), property = table.find("<th>property</th>"),
             zeta = table.find("<th>zeta</th>"), reproducer = table.find("<th>reproducer</th>");
  EXPECT_EQ(result, std::string::npos);  // no row says a status
  EXPECT_LT(property, zeta);
  EXPECT_LT(zeta, reproducer);
}

// A gate report's model rows carry each boundary's binding: parity.gate/2 names the routine and
// its status "routine", a saved parity.gate/1 report "row" for both. Either shows the binding.
TEST(ReportPage, AGateReportShowsEachBoundarysBindingUnderEitherSchema) {
  const auto gate = [](const std::string& schema, const std::string& key) {
    const json binding = {
        {key, "audio_input_projection_fp32"}, {"status", key}, {"reason", "bound on host"}, {"calls", 1}};
    return json{{"schema", schema},
                {"model", {{{"tokens", 12}, {"case_id", "R/R"}, {"boundary_bindings", {{"audio_proj_in", binding}}}}}},
                {"all_hold", true}};
  };
  for (const json& doc : {gate("parity.gate/1", "row"), gate("parity.gate/2", "routine")}) {
    const std::string page = render_report_page({{"gate.json", doc}}, "");
    for (const char* part : {"every check of parity's kernels holds", "audio_input_projection_fp32", "bound on host"})
      EXPECT_TRUE(holds_text(page, part)) << doc["schema"];
  }
}

TEST(ReportPage, DegenerateInputsDoNotThrow) {
  for (const json& doc : {json(), json(1), json::array(), json({1, "a"}), json({{"results", 3}}),
                          json({{"a", {{"b", {{"c", {{"d", {{"e", {{"f", 1}}}}}}}}}}}}),
                          json({{"probes", {{{"x", 1}}}}}), json({{"schema", "parity.trajectory/1"}})})
    EXPECT_TRUE(holds_text(render_report_page({{"f.json", doc}}, ""), "render-check")) << doc.dump();
}

}  // namespace
}  // namespace parity::report
