#include <parity/properties/gen/extent_caps.hpp>

#include <cctype>
#include <cstdlib>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>

namespace parity::gen {

std::string extent_cap_variable(const std::string& extent) {
  std::string name = "PARITY_MAX_";
  for (const char ch : extent) name += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

ExtentMaxima resolve_extent_caps(const std::string& family, const std::vector<ExtentCap>& caps,
                                 const ExtentMaxima& explicit_maxima) {
  ExtentMaxima out;
  std::string known;
  for (const auto& cap : caps) {
    const auto limit = static_cast<std::uint64_t>(cap.limit);
    const std::string variable = extent_cap_variable(cap.extent);
    const auto min = static_cast<std::uint64_t>(cap.min);
    out[cap.extent] = static_cast<std::int64_t>(env_decimal(variable.c_str(), min, limit).value_or(cap.default_max));
    known += (known.empty() ? "" : ", ") + cap.extent;
  }
  for (const auto& [extent, max] : explicit_maxima) {
    const std::string flag = "--max " + extent + "=" + std::to_string(max);
    const auto it = out.find(extent);
    if (it == out.end())
      throw InputError(flag + ": the " + family + " family has no extent " + extent + " (its extents: " + known + ")");
    for (const auto& cap : caps)
      if (cap.extent == extent && (max < cap.min || max > cap.limit))
        throw InputError(flag + ": " + std::to_string(max) + " is outside [" + std::to_string(cap.min) + ", " +
                         std::to_string(cap.limit) + "]");
    it->second = max;
  }
  return out;
}

std::string extent_cap_assignments(const std::vector<ExtentCap>& caps) {
  std::string out;
  for (const auto& cap : caps) {
    const std::string variable = extent_cap_variable(cap.extent);
    if (const char* v = std::getenv(variable.c_str()); v && *v) out += variable + "=" + v + " ";
  }
  return out;
}

}  // namespace parity::gen
