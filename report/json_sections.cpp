#include <parity/report/json_sections.hpp>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include <parity/report/case_text.hpp>
#include <parity/report/field_text.hpp>
#include <parity/report/html_blocks.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/reproducer_link.hpp>
#include <parity/report/result_status.hpp>

namespace parity::report {
namespace {

constexpr std::array<std::string_view, 13> kFirst{"name",    "property",    "family",  "subject", "probe",
                                                  "shape",   "case",        "verdict", "outcome", "kind",
                                                  "failure", "detected_by", "detail"};
constexpr std::array<std::string_view, 2> kLast{"reproducer", "replay"};
constexpr std::size_t kLongJson = 120;  // nested JSON longer than this is folded

bool is_scalar(const json& j) { return !j.is_object() && !j.is_array(); }

bool all_scalars(const json& j) {
  return std::all_of(j.begin(), j.end(), [](const json& e) { return is_scalar(e); });
}

bool has_objects(const json& a) {
  return a.is_array() && std::any_of(a.begin(), a.end(), [](const json& e) { return e.is_object(); });
}

// A flat object: every member a scalar or an array of scalars.
bool flat(const json& j) {
  return j.is_object() && std::all_of(j.begin(), j.end(),
                                      [](const json& e) { return is_scalar(e) || (e.is_array() && all_scalars(e)); });
}

std::string heading(int level, const std::string& text) {
  const std::string h = "h" + std::to_string(std::clamp(level, 2, 6));
  return "<" + h + ">" + markup_escaped(text) + "</" + h + ">\n";
}

std::string compact(const json& j) {
  const std::string text = j.dump();
  if (text.size() <= kLongJson) return "<code>" + markup_escaped(text) + "</code>";
  return "<details><summary><code>" + markup_escaped(text.substr(0, kLongJson)) + "&hellip;</code></summary><code>" +
         markup_escaped(text) + "</code></details>";
}

std::string scalars_text(const json& a) {
  std::string out;
  for (const auto& e : a) out += (out.empty() ? "" : ", ") + display(e);
  return out.empty() ? "none" : out;
}

// JSON folded behind a one-line summary (plain text).
std::string folded(const std::string& summary, const json& j) {
  return "<details><summary>" + markup_escaped(summary) + "</summary><code>" + markup_escaped(j.dump()) +
         "</code></details>";
}

std::string map_summary(const json& map) {
  std::string s = "map";
  for (const char* key : {"output", "measure"})
    if (const json& v = member_or_null(map, key); v.is_string()) s += " " + v.get<std::string>();
  if (const json& r = member_or_null(map, "rows"), &c = member_or_null(map, "cols"); r.is_number() && c.is_number())
    s += ", " + r.dump() + " x " + c.dump();
  return s;
}

std::string cell(const std::string& key, const json& v, const std::filesystem::path& page_dir) {
  if (v.is_null()) return "<span class=\"absent\">&ndash;</span>";
  if (key == "case" && v.is_object())
    return "<code class=\"case\">" + markup_escaped(case_summary({{"case", v}})) + "</code>" + folded("JSON", v);
  if (key == "map" && v.is_object()) return folded(map_summary(v) + " (drawn in its card)", v);
  if ((key == "reproducer" || key == "path") && v.is_string()) return file_link(v.get<std::string>(), page_dir);
  if (key == "replay" && v.is_string())
    return "<code class=\"command\">" + markup_escaped(v.get<std::string>()) + "</code>";
  if (v.is_array() && all_scalars(v) && v.size() <= 8) return scalars_text(v);
  if (!is_scalar(v)) return compact(v);
  return display(v);
}

std::vector<std::string> columns_of(const json& rows) {
  std::vector<std::string> seen;
  for (const auto& r : rows)
    if (r.is_object())
      for (const auto& [k, v] : r.items())
        if (std::find(seen.begin(), seen.end(), k) == seen.end()) seen.push_back(k);
  auto rank = [](const std::string& k) {
    for (std::size_t i = 0; i < kFirst.size(); ++i)
      if (k == kFirst[i]) return static_cast<int>(i);
    for (std::size_t i = 0; i < kLast.size(); ++i)
      if (k == kLast[i]) return 1000 + static_cast<int>(i);
    return 100;
  };
  std::stable_sort(seen.begin(), seen.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return seen;
}

std::string status_cell(Status s) {
  return "<span class=\"status-" + std::string(status_name(s)) + "\">" + status_name(s) + "</span>";
}

}  // namespace

std::string rows_table(const json& rows, const std::filesystem::path& page_dir) {
  const std::vector<std::string> columns = columns_of(rows);
  const bool with_status =
      std::any_of(rows.begin(), rows.end(), [](const json& r) { return row_status(r) != Status::unknown; });
  Row header;
  if (with_status) header.push_back("result");
  for (const auto& c : columns) header.push_back(markup_escaped(c));
  std::vector<Row> body;
  for (const auto& r : rows) {
    if (!r.is_object()) continue;
    Row row;
    if (with_status) row.push_back(status_cell(row_status(r)));
    for (const auto& c : columns) row.push_back(r.contains(c) ? cell(c, r.at(c), page_dir) : "");
    body.push_back(std::move(row));
  }
  return html_table(header, body);
}

std::string json_sections(const json& value, const std::filesystem::path& page_dir, int level) {
  if (has_objects(value)) return rows_table(value, page_dir);
  if (value.is_array()) return "<p>" + scalars_text(value) + "</p>\n";
  if (!value.is_object()) return "<p>" + display(value) + "</p>\n";
  if (level > 6) return "<p>" + compact(value) + "</p>\n";

  std::vector<std::pair<std::string, std::string>> settings;
  std::string sections;
  // The members in key order, "findings" (a provider's results, not gated) last and said to be.
  std::vector<std::pair<std::string, const json*>> members;
  for (const auto& [key, v] : value.items())
    if (key != "findings") members.emplace_back(key, &v);
  if (value.contains("findings")) members.emplace_back("findings (reported, not gated)", &value.at("findings"));
  for (const auto& [key, member] : members) {
    const json& v = *member;
    if (key == "replay" && value.contains("reproducer")) continue;  // shown with the reproducer
    if (key == "reproducer") {
      sections += heading(level, "reproducer") + reproducer_html(v, member_or_null(value, "replay"), page_dir);
    } else if (is_scalar(v) || (v.is_array() && !has_objects(v)) || key == "case" || key == "map") {
      settings.emplace_back(markup_escaped(key), cell(key, v, page_dir));
    } else if (v.is_array()) {
      sections += heading(level, key) + rows_table(v, page_dir);
    } else if (!v.empty() && std::all_of(v.begin(), v.end(), [](const json& m) { return flat(m); })) {
      json rows = json::array();  // {name: {flat}} as one table, the name first
      for (const auto& [name, m] : v.items()) {
        json r = {{"name", name}};
        r.update(m);
        rows.push_back(std::move(r));
      }
      sections += heading(level, key) + rows_table(rows, page_dir);
    } else {
      sections += heading(level, key) + json_sections(v, page_dir, level + 1);
    }
  }
  return (settings.empty() ? "" : html_settings(settings)) + sections;
}

}  // namespace parity::report
