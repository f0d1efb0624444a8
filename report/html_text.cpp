#include <parity/report/html_text.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace parity::report {

namespace {
const char* non_finite_text(double v) {
  if (std::isnan(v)) return "nan";
  return v > 0 ? "inf" : "-inf";
}
}  // namespace

std::string format_exact(double v) {
  if (!std::isfinite(v)) return non_finite_text(v);
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

std::string format_measure(double v) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < kExactIntegers) return format_exact(v);
  return format_short(v, 4);
}

std::string format_value(double v) {
  const auto f = static_cast<float>(v);
  if (!std::isfinite(v) || static_cast<double>(f) != v || v == std::trunc(v)) return format_measure(v);
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, end);
}

std::string format_short(double v, int digits) {
  if (!std::isfinite(v)) return non_finite_text(v);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace parity::report
