#include <parity/report/case_text.hpp>

#include <exception>

#include <parity/core/case.hpp>
#include <parity/report/field_text.hpp>
#include <parity/report/html_text.hpp>

namespace parity::report {

std::string case_summary(const json& row) {
  for (const char* key : {"case_summary", "shrunk_case", "case"})
    if (const json& s = member_or_null(row, key); s.is_string()) return s.get<std::string>();
  const json& c = member_or_null(row, "case");
  if (!c.is_object()) return {};
  try {
    return case_from_json(c).summary();
  } catch (const std::exception& e) {  // InputError, or a value no case can hold
    return std::string("a case parity cannot read (") + e.what() + ")";
  }
}

std::string case_params_html(const json& case_object) {
  std::string out;
  const json& params = member_or_null(case_object, "params");
  if (!params.is_object()) return out;
  for (const auto& [name, value] : params.items())
    out += (out.empty() ? "" : " ") + markup_escaped(name) + "=" + display(value);
  return out;
}

}  // namespace parity::report
