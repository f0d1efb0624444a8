#include <parity/report/field_text.hpp>

#include <cmath>
#include <limits>

#include <parity/report/html_text.hpp>

namespace parity::report {

const json& member_or_null(const json& j, std::string_view key) {
  static const json null_value;
  if (!j.is_object()) return null_value;
  const auto it = j.find(key);
  return it == j.end() ? null_value : *it;
}

const json& array_member(const json& j, std::string_view key) {
  static const json empty = json::array();
  const json& m = member_or_null(j, key);
  return m.is_array() ? m : empty;
}

std::optional<double> number(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (!j.is_string()) return std::nullopt;
  const auto& s = j.get_ref<const std::string&>();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  return std::nullopt;
}

std::string display(const json& j) {
  if (!j.is_number_float()) return display_exact(j);
  const double v = j.get<double>();
  const std::string shown = format_value(v), exact = format_exact(v);
  return shown == exact ? shown : "<span title=\"" + exact + "\">" + shown + "</span>";
}

std::string display_exact(const json& j) {
  if (j.is_number_integer()) return j.dump();  // every digit, beyond 2^53 too
  if (j.is_number()) return format_exact(j.get<double>());
  if (j.is_string()) return markup_escaped(j.get_ref<const std::string&>());
  return markup_escaped(j.dump());
}

std::string display_member(const json& j, std::string_view key) {
  if (!j.is_object() || !j.contains(key)) return "missing";
  return display(j.at(std::string(key)));
}

std::string display_member_exact(const json& j, std::string_view key) {
  if (!j.is_object() || !j.contains(key)) return "missing";
  return display_exact(j.at(std::string(key)));
}

}  // namespace parity::report
