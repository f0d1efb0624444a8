#pragma once
// What tests check of a text (a page, a verdict's detail): a gtest predicate,
// EXPECT_TRUE(holds_text(page, "<td>nan</td>")), whose failure quotes the text it missed.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace parity {

// Success when `text` holds `part` at or after character `from`, saying where (what
// EXPECT_FALSE prints); otherwise a failure that quotes `part`.
inline ::testing::AssertionResult holds_text(const std::string& text, const std::string& part, std::size_t from = 0) {
  const std::size_t at = text.find(part, from);
  if (at == std::string::npos) return ::testing::AssertionFailure() << "no \"" << part << "\" from character " << from;
  return ::testing::AssertionSuccess() << "\"" << part << "\" at character " << at;
}

}  // namespace parity
