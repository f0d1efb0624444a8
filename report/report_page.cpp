#include <parity/report/report_page.hpp>

#include <parity/report/failure_card.hpp>
#include <parity/report/field_text.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/json_sections.hpp>
#include <parity/report/page.hpp>
#include <parity/report/result_status.hpp>
#include <parity/report/trajectory_html.hpp>

namespace parity::report {
namespace {

constexpr std::size_t kFailuresListed = 20;

bool is_trajectory(const json& doc) {
  const json& schema = member_or_null(doc, "schema");
  return schema.is_string() && schema.get_ref<const std::string&>().starts_with("parity.trajectory/");
}

bool is_reproducer(const json& doc) {
  const json& schema = member_or_null(doc, "schema");
  return schema.is_string() && schema.get_ref<const std::string&>().starts_with("parity.repro/");
}

std::string counted(int n, const char* noun) { return std::to_string(n) + " " + noun; }

std::string conclusion_block(const ReportInput& in, const std::filesystem::path& page_dir) {
  std::string out = "<p><b>" + markup_escaped(in.name) + "</b>: " + conclusion_sentence(in.doc) + "</p>\n";
  if (is_trajectory(in.doc)) return out;
  if (is_reproducer(in.doc))
    return out + "<div class=\"cards\">\n" + failure_card(reproducer_row(in.doc, in.name), page_dir) + "</div>\n";
  const Tally t = tally_rows(in.doc);
  if (t.failing.empty()) return out;
  out += "<div class=\"cards\">\n";
  for (std::size_t i = 0; i < t.failing.size() && i < kFailuresListed; ++i)
    out += failure_card(*t.failing[i], page_dir);
  if (t.failing.size() > kFailuresListed)
    out += "<p>and " + std::to_string(t.failing.size() - kFailuresListed) + " more, in the tables below</p>\n";
  return out + "</div>\n";
}

}  // namespace

std::string conclusion_sentence(const json& doc) {
  if (is_trajectory(doc)) {
    const json& equal = member_or_null(doc, "all_steps_bitwise_equal");
    if (equal == true)
      return "<span class=\"equal\">every step of every seed is bitwise equal between the layouts.</span>";
    if (equal == false) return "<span class=\"diverged\">the single and batched layouts diverged.</span>";
    return "all_steps_bitwise_equal is " + display_member(doc, "all_steps_bitwise_equal") + ".";
  }
  if (is_reproducer(doc)) {
    const json& kind = member_or_null(member_or_null(doc, "observed"), "failure");
    return "<span class=\"diverged\">a reproducer: " + display_member(doc, "property") + " failed on " +
           display_member(doc, "subject") + (kind.is_string() ? " (" + display(kind) + ")" : "") +
           "</span> when it was written; replaying it tells whether it still does.";
  }
  const Tally t = tally_rows(doc);
  const json& all_hold = member_or_null(doc, "all_hold");
  if (all_hold == true)
    return "<span class=\"equal\">every check of parity's kernels holds</span> (LibTorch's results are findings, not "
           "gated).";
  if (all_hold == false)
    return "<span class=\"diverged\">some checks fail</span>" +
           (t.fails ? ": " + counted(t.fails, "failing row(s)") + "." : " (all_hold is false).");
  const bool probes = member_or_null(doc, "probes").is_array();
  if (t.fails)
    return "<span class=\"diverged\">" + std::to_string(t.fails) + " of " + std::to_string(t.total()) +
           (probes ? " probes not detected (a failure of parity)" : " results fail") + "</span>.";
  if (t.holds)
    return "<span class=\"equal\">" + (probes ? "every probe detected" : "all " + counted(t.holds, "results hold")) +
           "</span>" + (t.skipped ? " (" + counted(t.skipped, "skipped or not applicable") + ")." : ".");
  if (t.skipped) return counted(t.skipped, "result(s)") + ", every one skipped or not applicable.";
  return "no verdict parity recognises in this file; its contents are below.";
}

std::string render_report_page(const std::vector<ReportInput>& inputs, const std::filesystem::path& page_dir) {
  std::string body = "<h1>parity report</h1>\n<section class=\"conclusion\">\n";
  for (const auto& in : inputs) body += conclusion_block(in, page_dir);
  body += "</section>\n";
  for (const auto& in : inputs) {
    body += "<section class=\"file\">\n<h2 class=\"file\">" + markup_escaped(in.name) + "</h2>\n";
    body += is_trajectory(in.doc) ? trajectory_body(in.doc, page_dir) : json_sections(in.doc, page_dir, 3);
    body += "</section>\n";
  }
  return html_page("parity report", body);
}

}  // namespace parity::report
