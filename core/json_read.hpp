#pragma once
// Reading JSON fields with errors that name the field: "case.dims.K: expected an integer".
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace parity::json_read {

using nlohmann::json;

// The member `key` of object `j` (at path `where`); throws InputError if `j` is not an
// object or the member is missing.
const json& member(const json& j, const std::string& where, const std::string& key);
const json* optional_member(const json& j, const std::string& where, const std::string& key);

std::string as_string(const json& j, const std::string& where);
std::int64_t as_int(const json& j, const std::string& where);
std::uint64_t as_uint(const json& j, const std::string& where);
// A number, or one of the texts "inf", "-inf", "nan".
double as_double(const json& j, const std::string& where);
bool as_bool(const json& j, const std::string& where);
// "0x..." hexadecimal text -> bits.
std::uint64_t as_hex_bits(const json& j, const std::string& where);
void require_object(const json& j, const std::string& where);
void require_array(const json& j, const std::string& where);

std::string hex_bits(std::uint64_t bits, int digits);
// A double as JSON: a number when finite, else the text "inf", "-inf" or "nan" (JSON has no
// non-finite numbers); as_double reads both forms back exactly.
json finite_or_text(double v);

}  // namespace parity::json_read
