#include <parity/report/failure_card.hpp>

#include <algorithm>
#include <exception>
#include <optional>

#include <parity/core/element_map.hpp>
#include <parity/core/verdict.hpp>
#include <parity/report/case_text.hpp>
#include <parity/report/element_map_svg.hpp>
#include <parity/report/field_text.hpp>
#include <parity/report/html_text.hpp>
#include <parity/report/reproducer_link.hpp>

namespace parity::report {
namespace {

// The words of a failure kind's JSON name ("value": "a wrong value"); "" for another string.
std::string kind_words(const json& kind) {
  if (!kind.is_string()) return {};
  const std::optional<FailureKind> k = failure_kind_from_name(kind.get_ref<const std::string&>());
  return k ? failure_kind_text(*k) : std::string();
}

std::string card_heading(const json& row) {
  std::string what;
  for (const char* key : {"family", "property", "probe", "shape", "subject"})
    if (const json& v = member_or_null(row, key); v.is_string())
      what += (what.empty() ? "" : " &middot; ") + std::string("<span class=\"") + key + "\">" +
              markup_escaped(v.get<std::string>()) + "</span>";
  std::string kind = kind_words(member_or_null(row, "kind"));
  if (kind.empty()) kind = kind_words(member_or_null(member_or_null(row, "verdict"), "failure"));
  if (kind.empty())
    if (const json& s = member_or_null(row, "status"); s.is_string()) {
      kind = s.get<std::string>();  // e.g. "not_detected": "not detected"
      std::replace(kind.begin(), kind.end(), '_', ' ');
      kind = markup_escaped(kind);
    }
  if (kind.empty()) kind = "fails";
  return "<h4>" + (what.empty() ? std::string("a failing result") : what) + " <span class=\"kind\">" + kind +
         "</span></h4>\n";
}

std::string what_broke(const json& row) {
  std::string out;
  for (const json* d : {&member_or_null(row, "detail"), &member_or_null(row, "observed"),
                        &member_or_null(member_or_null(row, "verdict"), "detail")})
    if (d->is_string() && !d->get_ref<const std::string&>().empty())
      out += "<p class=\"detail\">" + markup_escaped(d->get<std::string>()) + "</p>\n";
  for (const json& f : array_member(row, "failures")) out += "<p class=\"detail\">" + display(f) + "</p>\n";
  return out;
}

std::string map_html(const json& row) {
  const json* map = &member_or_null(row, "map");
  if (map->is_null()) map = &member_or_null(member_or_null(row, "verdict"), "map");
  if (map->is_null()) return {};
  try {
    return element_map_figure(element_map_from_json(*map));
  } catch (const std::exception& e) {
    return "<p class=\"note\">an element map parity cannot draw: " + markup_escaped(e.what()) + "</p>\n";
  }
}

std::string command_block(const char* label, const json& command) {
  if (!command.is_string()) return {};
  return "<p class=\"label\">" + std::string(label) + "</p><pre class=\"command\"><code class=\"command\">" +
         markup_escaped(command.get<std::string>()) + "</code></pre>\n";
}

}  // namespace

std::string failure_card(const json& row, const std::filesystem::path& page_dir) {
  std::string out = "<article class=\"card\">\n" + card_heading(row);
  if (const std::string c = case_summary(row); !c.empty()) {
    out += "<p class=\"case\"><code class=\"case\">" + markup_escaped(c) + "</code>";
    // An op family's detail names the case's parameters already, its dtypes by name.
    const json& detail = member_or_null(row, "detail");
    const bool named =
        detail.is_string() && detail.get_ref<const std::string&>().find("(case params: ") != std::string::npos;
    if (const std::string params = case_params_html(member_or_null(row, "case")); !params.empty() && !named)
      out += " <span class=\"params\">params " + params + "</span>";
    out += "</p>\n";
  }
  out += what_broke(row) + map_html(row);
  if (const json& r = member_or_null(row, "reproducer"); r.is_string())
    out += "<p class=\"reproducer\">reproducer " + file_link(r.get<std::string>(), page_dir) + "</p>\n";
  out += command_block("replay", member_or_null(row, "replay"));
  out += command_block("rerun", member_or_null(row, "rerun"));
  return out + "</article>\n";
}

json reproducer_row(const json& doc, const std::string& path) {
  const json& observed = member_or_null(doc, "observed");
  json row = {{"property", member_or_null(doc, "property")},
              {"subject", member_or_null(doc, "subject")},
              {"kind", member_or_null(observed, "failure")},
              {"case", member_or_null(doc, "case")},
              {"detail", member_or_null(observed, "detail")},
              {"reproducer", path},
              {"replay", "parity replay " + path}};
  if (const json& family = member_or_null(member_or_null(doc, "case"), "family"); family.is_string())
    row["family"] = family;
  if (const json& map = member_or_null(observed, "map"); !map.is_null()) row["map"] = map;
  return row;
}

}  // namespace parity::report
