#pragma once
// The one parser of numbers a user types: flags (--cases, --seed, ...) and environment
// variables (PARITY_CASES, PARITY_SEED, PARITY_THREADS). Plain decimal only: digits, no sign,
// no space, no leading zero ("010" is not octal ten, nor decimal ten: it is refused), no "0x".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parity {

// The value of plain decimal `text`, or nullopt if it is not plain decimal or exceeds 2^64 - 1.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

// parse_decimal(text) within [min, max]; otherwise throws InputError naming `what` (a flag
// or a variable) and the text, escaped: "--cases: '010' is not a non-negative integer in
// plain decimal ...", "--steps: 65 is outside [1, 64]".
std::uint64_t decimal_in_range(std::string_view text, const std::string& what, std::uint64_t min, std::uint64_t max);

// The shortest decimal that reads back as `v` ("1e-05", "0.5", "4096"): for messages and the
// command lines parity prints, whose values must read back exactly.
std::string shortest_decimal(double v);

// Environment variable `name` read with decimal_in_range; nullopt when unset or empty.
std::optional<std::uint64_t> env_decimal(const char* name, std::uint64_t min, std::uint64_t max);

}  // namespace parity
