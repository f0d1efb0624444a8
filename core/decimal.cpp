#include <parity/core/decimal.hpp>

#include <charconv>
#include <cstdlib>

#include <parity/core/error.hpp>

namespace parity {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<std::uint64_t>(c - '0'), &v))
      return std::nullopt;
  }
  return v;
}

std::uint64_t decimal_in_range(std::string_view text, const std::string& what, std::uint64_t min, std::uint64_t max) {
  const auto v = parse_decimal(text);
  if (!v)
    throw InputError(what + ": '" + std::string(text) +
                     "' is not a non-negative integer in plain decimal (digits only: no sign, space, leading zero "
                     "or 0x; at most 2^64 - 1)");
  if (*v < min || *v > max)
    throw InputError(what + ": " + std::string(text) + " is outside [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  return *v;
}

std::optional<std::uint64_t> env_decimal(const char* name, std::uint64_t min, std::uint64_t max) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return decimal_in_range(v, name, min, max);
}

std::string shortest_decimal(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, end);
}

}  // namespace parity
