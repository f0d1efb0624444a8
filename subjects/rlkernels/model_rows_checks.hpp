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

struct LinearDims {
  std::int64_t M, N, K;
};
// x f32 [M,K], W f32 [N,K].
LinearDims check_linear(const Tensor& x, const Tensor& W);
// dy f32 [M,N], W f32 [N,K].
LinearDims check_linear_backward(const Tensor& dy, const Tensor& W);

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

struct SwigluDims {
  std::int64_t M, D, F;
};
// h f32 [M,D]; W1, W3 f32 [F,D]; W2 f32 [D,F]; d_out (if given) f32 [M,D].
SwigluDims check_swiglu(const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2,
                        const Tensor* d_out, const char* what);

// [top; bottom] as one float32 tensor: rows of `top`, then rows of `bottom` (same columns).
Tensor stack_rows(const Tensor& top, const Tensor& bottom);

}  // namespace parity::subjects::rlkernels::model
