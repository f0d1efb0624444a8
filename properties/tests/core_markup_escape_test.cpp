// markup_escaped (core/markup_escape.hpp): the one escaper of the JUnit XML and the HTML pages.
#include <gtest/gtest.h>

#include <parity/core/markup_escape.hpp>

namespace parity {
namespace {

TEST(MarkupEscape, EntitiesForTheFiveMarkupCharacters) {
  EXPECT_EQ(markup_escaped("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(MarkupEscape, ControlCharactersXmlCannotHoldBecomeVisible) {
  EXPECT_EQ(markup_escaped(std::string("a\x01"
                                       "b\x1b",
                                       4)),
            "a\\x01b\\x1b");
  EXPECT_EQ(markup_escaped(std::string("\0", 1)), "\\x00");
}

TEST(MarkupEscape, KeepsWhitespaceAndUtf8) {
  EXPECT_EQ(markup_escaped("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
  EXPECT_EQ(markup_escaped("σ ≤ 2⁻⁸"), "σ ≤ 2⁻⁸");
}

}  // namespace
}  // namespace parity
