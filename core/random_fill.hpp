#pragma once
// Deterministic draws from Philox: the same (seed, stream, index) gives the same bits on
// every machine, because only IEEE basic operations are used (detmath.hpp).
#include <cstdint>

namespace parity {

// Standard normal draw for element `index` of `stream` (Box-Muller, cosine branch).
double philox_normal(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

// out[i] = philox_normal(seed, stream, first + i) for i < count, bit for bit, eight at a time
// where the CPU has AVX-512 (AVX512F and AVX512DQ): the way to draw a whole tensor or row.
void philox_normals(std::uint64_t seed, std::uint32_t stream, std::uint64_t first, std::int64_t count, double* out);

// Uniform draw in (0, 1] for element `index` of `stream`.
double philox_uniform(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

// A 64-bit random word for element `index` of `stream` (for discrete choices).
std::uint64_t philox_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index);

}  // namespace parity
