#pragma once
// Text made safe inside XML 1.0 and HTML markup, as element content or a quoted attribute
// value: & < > " ' become &amp; &lt; &gt; &quot; &#39;, and a control character that XML 1.0
// cannot hold (any below 0x20 other than tab, newline and carriage return) becomes the visible
// text \xNN. The JUnit writer (cli/junit_xml) and the HTML reports (report/) both use it.
#include <string>
#include <string_view>

#include <parity/core/escape.hpp>

namespace parity {

inline std::string markup_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    if (ch == '&') out += "&amp;";
    else if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '"') out += "&quot;";
    else if (ch == '\'') out += "&#39;";
    else if (const auto c = static_cast<unsigned char>(ch); c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
      out += hex_escaped(c);
    else out += ch;
  }
  return out;
}

}  // namespace parity
