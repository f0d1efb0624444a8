// core/decimal.hpp: plain decimal only, the full uint64 range, and messages that name the flag.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include <parity/core/decimal.hpp>
#include <parity/core/tests/input_error_assertions.hpp>

namespace parity {
namespace {

TEST(Decimal, AcceptsPlainDecimalOverTheWholeRange) {
  EXPECT_EQ(parse_decimal("0"), 0u);
  EXPECT_EQ(parse_decimal("25"), 25u);
  EXPECT_EQ(parse_decimal("18446744073709551615"), UINT64_MAX);
}

TEST(Decimal, RefusesEverythingElse) {
  for (const char* bad : {"", "010", "00", "0x10", "+5", "-1", " 5", "5 ", "5x", "1e3", "18446744073709551616",
                          "99999999999999999999", "1,2"})
    EXPECT_EQ(parse_decimal(bad), std::nullopt) << "'" << bad << "'";
}

TEST(Decimal, MessagesNameTheFlagAndEscapeTheText) {
  const std::string cases = input_error_message([] { decimal_in_range("1\n2", "--cases", 1, 10); }, "no InputError");
  EXPECT_TRUE(cases.starts_with("--cases: '1\\n2' is not a non-negative integer in plain decimal")) << cases;
  EXPECT_EQ(input_error_message([] { decimal_in_range("65", "--steps", 1, 64); }, "no InputError"),
            "--steps: 65 is outside [1, 64]");
}

}  // namespace
}  // namespace parity
