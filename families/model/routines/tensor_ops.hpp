#pragma once
// Data movement and elementwise float32 arithmetic the routines compose their primitives with.
// Each is exact (copies) or one IEEE operation per element, so it adds no order dependence.
#include <cstdint>
#include <functional>
#include <vector>

#include <parity/core/tensor.hpp>

namespace parity::model {

// The same elements, row-major, under another shape of equal size (a contiguous copy).
Tensor reshaped(const Tensor& t, std::vector<std::int64_t> shape);
// [A, B, C, D] -> [A, C, B, D], contiguous.
Tensor swap_dims_1_2(const Tensor& t);
// t [..., C] as token rows [M, C], whose last dim `rows_fn` maps to some C', back to [..., C'].
// The primitives take 2-D operands; the routines' callers pass [B, T, C].
Tensor as_token_rows(const Tensor& t, const std::function<Tensor(const Tensor&)>& rows_fn);
// a + b elementwise in float32 (same shapes).
Tensor add_f32(const Tensor& a, const Tensor& b);

}  // namespace parity::model
