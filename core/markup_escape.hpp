#pragma once
// Text made safe inside XML 1.0 and HTML markup, as element content or a quoted attribute
// value: & < > " ' become &amp; &lt; &gt; &quot; &#39;, and a control character that XML 1.0
// cannot hold (any below 0x20 other than tab, newline and carriage return) becomes the visible
// text \xNN. The JUnit writer (cli/junit_xml) and the HTML reports (report/) both use it.
#include <cstdio>
#include <string>
#include <string_view>

namespace parity {

inline std::string markup_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (const auto c = static_cast<unsigned char>(ch); c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
          char hex[5];
          std::snprintf(hex, sizeof hex, "\\x%02x", c);
          out += hex;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

}  // namespace parity
