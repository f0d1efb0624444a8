// The page of `parity report` without a browser: the status each kind of row reads as, the
// conclusion of each kind of report, failing rows listed first with their reproducer and replay,
// unknown fields shown, findings never counted. report_page_test.sh opens real pages in chromium.
#include <string>

#include <gtest/gtest.h>

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
  EXPECT_NE(conclusion_sentence({{"all_hold", true}}).find("every check of parity's kernels holds"), std::string::npos);
  EXPECT_NE(conclusion_sentence({{"all_hold", false}, {"rows", {{{"failures", {"x"}}}}}}).find("1 failing row"),
            std::string::npos);
  EXPECT_NE(conclusion_sentence({{"probes", {{{"detected_by", nullptr}}, {{"detected_by", "p"}}}}})
                .find("1 of 2 probes not detected"),
            std::string::npos);
  EXPECT_NE(conclusion_sentence({{"results", {{{"kind", "holds"}}, {{"kind", "skipped"}}}}})
                .find("all 1 results hold</span> (1 skipped"),
            std::string::npos);
  EXPECT_NE(
      conclusion_sentence({{"schema", "parity.trajectory/1"}, {"all_steps_bitwise_equal", false}}).find("diverged"),
      std::string::npos);
  EXPECT_NE(conclusion_sentence({{"schema", "parity.repro/1"}, {"property", "repeatable"}, {"subject", "s"}})
                .find("repeatable failed on s"),
            std::string::npos);
  EXPECT_NE(conclusion_sentence(json::object()).find("no verdict"), std::string::npos);
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
  const auto item = page.find("<li>property <b>rows_independent</b>");
  ASSERT_NE(item, std::string::npos);
  EXPECT_LT(conclusion, item);
  EXPECT_LT(item, page.find("<table>"));
  EXPECT_NE(page.find("<a href=\"../repros/r.json\">", item), std::string::npos);
  EXPECT_NE(page.find("parity replay reports/repros/r.json", item), std::string::npos);
  EXPECT_NE(page.find("unknown_field"), std::string::npos);  // shown, not dropped
  EXPECT_NE(page.find("{&quot;deep&quot;:1}"), std::string::npos);
}

TEST(JsonSections, ColumnsNameTheResultFirstAndReproducerLast) {
  const std::string table = rows_table({{{"zeta", 1}, {"replay", "r"}, {"reproducer", "p"}, {"property", "q"}}}, "");
  const auto result = table.find("<th>result</th>"), property = table.find("<th>property</th>"),
             zeta = table.find("<th>zeta</th>"), reproducer = table.find("<th>reproducer</th>");
  EXPECT_EQ(result, std::string::npos);  // no row says a status
  EXPECT_LT(property, zeta);
  EXPECT_LT(zeta, reproducer);
}

TEST(ReportPage, DegenerateInputsDoNotThrow) {
  for (const json& doc : {json(), json(1), json::array(), json({1, "a"}), json({{"results", 3}}),
                          json({{"a", {{"b", {{"c", {{"d", {{"e", {{"f", 1}}}}}}}}}}}}),
                          json({{"probes", {{{"x", 1}}}}}), json({{"schema", "parity.trajectory/1"}})})
    EXPECT_NE(render_report_page({{"f.json", doc}}, "").find("render-check"), std::string::npos) << doc.dump();
}

}  // namespace
}  // namespace parity::report
