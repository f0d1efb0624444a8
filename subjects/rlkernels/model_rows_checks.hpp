#pragma once
// Input validation and operand packing shared by the host rows (model_rows.hpp) and the
// CUDA rows (model_rows_cuda.hpp), so both accept and refuse exactly the same inputs.
// Every check throws InputError naming the function and the operand.
#include <cstdint>
#include <vector>

#include <parity/core/tensor.hpp>

namespace parity::subjects::rlkernels::model {

// Row-major float32 values of a float32 or bfloat16 tensor (exact conversions).
std::vector<float> f32_values(const Tensor& t);

// A zero float32 tensor of `shape` and its storage.
struct F32Output {
  Tensor tensor;
  float* data;
  explicit F32Output(std::vector<std::int64_t> shape);
};

struct RowDims {
  std::int64_t M, C;  // rows (product of the leading dims) and the normalised last dim
};
// x f32 of rank >= 1 with C >= 1; w f32 [C] or nullptr; dy (if given) f32 of x's shape.
RowDims check_rms(const Tensor& x, const Tensor* w, const Tensor* dy, const char* what);

struct RopeDims {
  std::int64_t B, T, H, Dh, R;
};
// x f32 [B,T,H,Dh]; cos, sin f32 [T, R/2]; R even, 0 <= R <= Dh.
RopeDims check_rope(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims,
                    const char* what);

struct SwigluGateDims {
  std::int64_t M, F;
};
// ag f32 [M, 2F] (F >= 1), du f32 [M, F].
SwigluGateDims check_swiglu_gate_backward(const Tensor& ag, const Tensor& du);

}  // namespace parity::subjects::rlkernels::model
