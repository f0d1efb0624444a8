#pragma once
// Deterministic draws from Philox: the same (seed, stream, index) gives the same bits on
// every machine, because only IEEE basic operations are used (detmath.hpp).
#include <cstdint>

namespace parity {

// Standard normal draw for element `index` of `stream` (Box-Muller, cosine branch).
double philox_normal(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

// Uniform draw in (0, 1] for element `index` of `stream`.
double philox_uniform(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

// A 64-bit random word for element `index` of `stream` (for discrete choices).
std::uint64_t philox_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

}  // namespace parity
