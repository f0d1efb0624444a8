#include <parity/core/json_read.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

#include <parity/core/error.hpp>

namespace parity::json_read {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw InputError(where + ": " + what); }

}  // namespace

void require_object(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, "expected an object");
}

void require_array(const json& j, const std::string& where) {
  if (!j.is_array()) fail(where, "expected an array");
}

const json& member(const json& j, const std::string& where, const std::string& key) {
  const json* m = optional_member(j, where, key);
  if (!m) fail(where.empty() ? key : where + "." + key, "missing field");
  return *m;
}

const json* optional_member(const json& j, const std::string& where, const std::string& key) {
  require_object(j, where.empty() ? "<top>" : where);
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::string as_string(const json& j, const std::string& where) {
  if (!j.is_string()) fail(where, "expected a string");
  return j.get<std::string>();
}

std::int64_t as_int(const json& j, const std::string& where) {
  if (!j.is_number_integer()) fail(where, "expected an integer");
  if (j.is_number_unsigned() && j.get<std::uint64_t>() > INT64_MAX) fail(where, "integer too large");
  return j.get<std::int64_t>();
}

std::uint64_t as_uint(const json& j, const std::string& where) {
  if (!j.is_number_unsigned()) fail(where, "expected a non-negative integer");
  return j.get<std::uint64_t>();
}

double as_double(const json& j, const std::string& where) {
  if (j.is_string()) {
    const std::string t = j.get<std::string>();
    if (t == "inf") return std::numeric_limits<double>::infinity();
    if (t == "-inf") return -std::numeric_limits<double>::infinity();
    if (t == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  if (!j.is_number()) fail(where, "expected a number");
  return j.get<double>();
}

bool as_bool(const json& j, const std::string& where) {
  if (!j.is_boolean()) fail(where, "expected true or false");
  return j.get<bool>();
}

std::uint64_t as_hex_bits(const json& j, const std::string& where) {
  const std::string s = as_string(j, where);
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    fail(where, "expected hexadecimal bits like \"0x3f80\"");
  std::uint64_t v = 0;
  for (std::size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else fail(where, "expected hexadecimal bits like \"0x3f80\"");
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return v;
}

json finite_or_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

std::string hex_bits(std::uint64_t bits, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace parity::json_read
