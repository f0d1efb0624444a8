#pragma once
// SHA-256 (FIPS 180-4) by OpenSSL's libcrypto, as lowercase hex: the digests a bridge record
// carries for the sources that produced it.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace parity::properties::bridge {

// The 64 lowercase hex digits of SHA-256(bytes).
std::string sha256_hex(std::string_view bytes);

// SHA-256 of a file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> sha256_file_hex(const std::filesystem::path& path);

}  // namespace parity::properties::bridge
