#include <parity/properties/gen/case_restrictions.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>

namespace parity::gen {
namespace {

// The comma-separated items of `text`; InputError naming `flag` for an empty one.
std::vector<std::string> items_of(const std::string& text, const std::string& flag) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    items.push_back(text.substr(begin, end - begin));
    if (items.back().empty()) throw InputError(flag + ": an empty item in '" + text + "'");
    if (end == text.size()) return items;
    begin = end + 1;
  }
}

}  // namespace

std::string CaseRestrictions::flag_words() const {
  std::string words;
  if (!dtypes.empty()) {
    words += " --dtypes ";
    for (std::size_t i = 0; i < dtypes.size(); ++i) words += (i ? "," : "") + std::string(dtype_name(dtypes[i]));
  }
  if (!params.empty()) {
    std::string items;
    for (const auto& [name, value] : params) items += (items.empty() ? "" : ",") + name + "=" + shortest_decimal(value);
    words += " --param " + items;
  }
  return words;
}

std::vector<DType> parse_dtype_list(const std::string& text, const std::string& flag) {
  std::vector<DType> dtypes;
  for (const std::string& item : items_of(text, flag)) {
    DType t;
    try {
      t = parse_dtype(item);
    } catch (const InputError& e) {
      throw InputError(flag + ": " + e.what());
    }
    if (std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end())
      throw InputError(flag + ": " + item + " is given twice");
    dtypes.push_back(t);
  }
  return dtypes;
}

std::map<std::string, double> parse_param_values(const std::string& text, const std::string& flag) {
  std::map<std::string, double> params;
  for (const std::string& item : items_of(text, flag)) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw InputError(flag + ": '" + item + "' is not NAME=VALUE (e.g. layout=0)");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v))
      throw InputError(flag + " " + name + ": '" + value + "' is not a finite decimal number");
    if (!params.emplace(name, v).second) throw InputError(flag + ": " + name + " is given twice");
  }
  return params;
}

void refuse_restrictions(const std::string& family, const CaseRestrictions& r) {
  if (!r.dtypes.empty())
    throw InputError("--dtypes: " + family + " is not an op family: its cases' dtypes are its own");
  if (!r.params.empty())
    throw InputError("--param: " + family + " is not an op family: its cases' parameters are its own");
}

}  // namespace parity::gen
