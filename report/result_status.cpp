#include <parity/report/result_status.hpp>

#include <array>
#include <string_view>

#include <parity/core/verdict.hpp>
#include <parity/report/field_text.hpp>

namespace parity::report {
namespace {

Status from_word(std::string_view w) {
  constexpr std::array<std::string_view, 6> kHolds{"holds", "pass", "passed", "ok", "detected", "passes_now"};
  constexpr std::array<std::string_view, 7> kFails{"fails",       "fail",         "failed",         "flaky",
                                                   "still_fails", "not_detected", "fault_of_parity"};
  constexpr std::array<std::string_view, 5> kSkipped{"discarded", "not_applicable", "skipped", "unavailable",
                                                     "no_verdict"};
  for (auto h : kHolds)
    if (w == h) return Status::holds;
  for (auto f : kFails)
    if (w == f) return Status::fails;
  if (failure_kind_from_name(w)) return Status::fails;
  for (auto s : kSkipped)
    if (w == s) return Status::skipped;
  return Status::unknown;
}

void tally_into(const json& j, Tally& t) {
  if (j.is_array()) {
    for (const auto& e : j) {
      if (!e.is_object()) continue;
      switch (row_status(e)) {
        case Status::holds:
          ++t.holds;
          break;
        case Status::fails:
          ++t.fails, t.failing.push_back(&e);
          break;
        case Status::skipped:
          ++t.skipped;
          break;
        case Status::unknown:
          tally_into(e, t);  // a wrapper: its rows may say
      }
    }
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      if (key != "findings") tally_into(value, t);
  }
}

}  // namespace

const char* status_name(Status s) {
  switch (s) {
    case Status::holds:
      return "holds";
    case Status::fails:
      return "fails";
    case Status::skipped:
      return "skipped";
    case Status::unknown:
      break;
  }
  return "unknown";
}

Status row_status(const json& row) {
  if (!row.is_object()) return Status::unknown;
  if (member_or_null(row, "skipped") == true) return Status::skipped;
  if (const json& f = member_or_null(row, "failed"); f.is_boolean())
    return f.get<bool>() ? Status::fails : Status::holds;
  for (const char* key : {"outcome", "verdict", "kind", "status"}) {
    const json& v = member_or_null(row, key);
    if (v.is_string()) return from_word(v.get_ref<const std::string&>());
    if (v.is_object()) return row_status(v);
  }
  for (const char* key : {"passed", "holds", "ok", "detected"})
    if (const json& v = member_or_null(row, key); v.is_boolean()) return v.get<bool>() ? Status::holds : Status::fails;
  if (row.contains("detected_by")) return row.at("detected_by").is_string() ? Status::holds : Status::fails;
  if (const json& f = member_or_null(row, "failures"); f.is_array()) return f.empty() ? Status::holds : Status::fails;
  return Status::unknown;
}

Tally tally_rows(const json& doc) {
  Tally t;
  tally_into(doc, t);
  return t;
}

}  // namespace parity::report
