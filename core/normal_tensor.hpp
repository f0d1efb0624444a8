#pragma once
// Tensors of Philox normals (random_fill.hpp), drawn a row at a time by philox_normals.
#include <cstdint>
#include <vector>

#include <parity/core/tensor.hpp>

namespace parity {

// A contiguous rows x cols tensor of `dtype` whose element (r, c) is
// float(philox_normal(seed, stream, r * cols + c) * scale) rounded to the dtype (round to nearest
// even; exact for f64), except row `probe`, when it lies in [0, rows), drawn from
// `probe_stream` at index c: the same bits as setting each element with Tensor::set_value.
Tensor normal_tensor(DType dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed, std::uint32_t stream,
                     double scale = 1.0, std::uint32_t probe_stream = 0, std::int64_t probe = -1);

// The same draws in a contiguous tensor of any rank: element i (row-major) of `shape` is
// float(philox_normal(seed, stream, i) * scale) rounded to the dtype. (A name of its own: a shape
// {N} would otherwise convert to normal_tensor's row count.)
Tensor normal_tensor_nd(DType dtype, const std::vector<std::int64_t>& shape, std::uint64_t seed, std::uint32_t stream,
                        double scale = 1.0);

}  // namespace parity
