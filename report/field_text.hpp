#pragma once
// Lenient reading of a report's JSON for display: a page shows what is present, says
// "missing" for what is not, and never throws on an unexpected type.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace parity::report {

using nlohmann::json;

// Member `key` of `j`; a null value when `j` is not an object or has no such member.
const json& member_or_null(const json& j, std::string_view key);

// Member `key` of `j` when it is an array; an empty array otherwise.
const json& array_member(const json& j, std::string_view key);

// The number `j` holds: a JSON number, or one of the texts "nan", "inf", "-inf" (the form
// json_read::finite_or_text writes); nullopt for anything else.
std::optional<double> number(const json& j);

// `j` as escaped HTML text: integers in full, other numbers as format_value writes them (when that is not exact, in a
// <span> whose title holds the exact value), strings as they are, null as "null", booleans as
// "true"/"false", arrays and objects as compact JSON (numbers in it as written).
std::string display(const json& j);

// As display, but every number exactly (integers in full, others by format_exact): for values whose every digit
// matters, such as the bf16 values beside their bit patterns.
std::string display_exact(const json& j);

// Member `key` of `j` displayed (display, or display_exact), or "missing" when absent.
std::string display_member(const json& j, std::string_view key);
std::string display_member_exact(const json& j, std::string_view key);

}  // namespace parity::report
