#pragma once
// Text from a user or a file, made safe to echo in a one-line message: control characters
// (newline, escape, NUL, DEL, ...) become \n, \r, \t or \xNN; everything else is kept, so
// escaping twice changes nothing. InputError escapes its message (core/error.hpp).
#include <cstdio>
#include <string>
#include <string_view>

namespace parity {

// "\xNN": the visible text of the byte `c`, two lowercase hex digits.
inline std::string hex_escaped(unsigned char c) {
  char buf[5];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

inline std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) out += ch;
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out += hex_escaped(c);
  }
  return out;
}

}  // namespace parity
