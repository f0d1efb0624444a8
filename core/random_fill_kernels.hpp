#pragma once
// The vector kernel of philox_normals (random_fill.hpp), called by random_fill.cpp only where
// the CPU has AVX512F and AVX512DQ.
#include <cstdint>

namespace parity::detail {

// out[8 b + j] = philox_normal(seed, stream, first + 8 b + j) for b < blocks, j < 8, bit for bit.
void philox_normals_avx512(std::uint64_t seed, std::uint32_t stream, std::uint64_t first, std::int64_t blocks,
                           double* out);

}  // namespace parity::detail
