#pragma once
// A hash that is the same on every machine, compiler and standard library, for names derived
// from content (reproducer files). std::hash is not: its value is unspecified and differs
// between libstdc++ and libc++.
//
// FNV-1a, 64 bit (Fowler, Noll, Vo; IETF draft-eastlake-fnv): a published function with published
// test vectors. It is written here rather than taken from OpenSSL because core depends on the
// standard library and nlohmann_json only; a file name needs no cryptographic strength.
#include <cstdint>
#include <string>
#include <string_view>

namespace parity {

// FNV-1a 64 of the bytes of `bytes`: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
std::uint64_t fnv1a_64(std::string_view bytes);

// `h` as 16 lower-case hexadecimal digits, zero-padded.
std::string hex16(std::uint64_t h);

}  // namespace parity
