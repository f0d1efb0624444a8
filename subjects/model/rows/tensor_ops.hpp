#pragma once
// Data movement and elementwise float32 arithmetic the rows compose their primitives with.
// Each is exact (copies) or one IEEE operation per element, so it adds no order dependence.
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace parity::model {

// The same elements, row-major, under another shape of equal size (a contiguous copy).
Tensor reshaped(const Tensor& t, std::vector<std::int64_t> shape);
// [A, B, C, D] -> [A, C, B, D], contiguous.
Tensor swap_dims_1_2(const Tensor& t);
// a + b elementwise in float32 (same shapes).
Tensor add_f32(const Tensor& a, const Tensor& b);

}  // namespace parity::model
