// The model's primitives (primitives.hpp: parity's CUDA kernels of the ops linear, rms_norm,
// rms_norm_backward, rope, sdpa, sdpa_backward, swiglu and swiglu_backward) equal those on the
// host (the kernels' host twins) bit for bit, at the model's shapes up to the gate's 4253-token
// sequence (beyond the sdpa declaration's S <= 512): linear float32 with and without a bias, the
// text projection's bf16 x and W beside a float32 bias, dx for float32 and bf16 W; RMSNorm and its
// dx with and without a weight, over the per-head rows of Dh = 16 as the attention norms them;
// RoPE on part of each head and its adjoint; the SwiGLU feed-forward and its dh; attention with
// far-off scores in one head. Needs a GPU: exits 77 (ctest: skipped) when the cuda backend is
// unavailable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <parity/core/compare.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/families/model/routines/feed_forward.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::model {
namespace {

using std::int64_t;

void expect_twins(const Tensor& cuda_out, const Tensor& host_out, const std::string& what) {
  int64_t nonzero = 0;
  for (int64_t i = 0; i < host_out.numel(); ++i) nonzero += host_out.bits_at(i) != 0;
  ASSERT_GT(nonzero, 0) << what << ": degenerate case, all zero";
  EXPECT_TRUE(cuda_out.is_contiguous()) << what;
  const BitwiseDiff d = compare_bitwise(cuda_out, host_out);
  EXPECT_TRUE(d.equal()) << what << " (cuda vs host): " << d.describe(host_out.shape());
}

TEST(ModelPrimitivesCudaTwin, Linear) {
  const Primitives& host = primitives(runtime::Backend::host);
  const Primitives& cuda = primitives(runtime::Backend::cuda);
  for (const int64_t M : {1, 17, 925, 4253})
    for (const DType dtype : {DType::f32, DType::bf16})
      for (const bool bias : {false, true}) {
        const std::string name = std::string("linear ") + (dtype == DType::bf16 ? "bf16" : "f32") + " M" +
                                 std::to_string(M) + (bias ? " with bias" : "");
        // K = 300: more than one term in some of the kernel's 256 lanes.
        const Tensor x = normal_tensor_nd(dtype, {M, 300}, 36, 0), W = normal_tensor_nd(dtype, {48, 300}, 36, 1),
                     b = normal_tensor_nd(DType::f32, {48}, 36, 2);
        const Tensor dy = normal_tensor_nd(DType::f32, {M, 48}, 36, 3);
        expect_twins(cuda.linear_forward(x, W, bias ? &b : nullptr), host.linear_forward(x, W, bias ? &b : nullptr),
                     name);
        expect_twins(cuda.linear_backward_input(dy, W), host.linear_backward_input(dy, W), name + " dx");
      }
}

TEST(ModelPrimitivesCudaTwin, FeedForward) {
  const Primitives& host = primitives(runtime::Backend::host);
  const Primitives& cuda = primitives(runtime::Backend::cuda);
  for (const int64_t M : {1, 17, 925, 4253}) {
    const Tensor h = normal_tensor_nd(DType::f32, {M, 64}, 37, 0), d_out = normal_tensor_nd(DType::f32, {M, 64}, 37, 1);
    const Tensor W1 = normal_tensor_nd(DType::f32, {300, 64}, 37, 2),
                 W3 = normal_tensor_nd(DType::f32, {300, 64}, 37, 3),
                 W2 = normal_tensor_nd(DType::f32, {64, 300}, 37, 4);
    const std::string name = "feed-forward M" + std::to_string(M);
    expect_twins(swiglu_forward(cuda, h, W1, W3, W2), swiglu_forward(host, h, W1, W3, W2), name);
    expect_twins(swiglu_backward_input(cuda, h, W1, W3, W2, d_out), swiglu_backward_input(host, h, W1, W3, W2, d_out),
                 name + " dh");
  }
}

TEST(ModelPrimitivesCudaTwin, RmsNorm) {
  const Primitives& host = primitives(runtime::Backend::host);
  const Primitives& cuda = primitives(runtime::Backend::cuda);
  // [rows, C]: the attention's per-head rows (4253 tokens x 4 heads of 16) and a block's 300 wide.
  for (const auto& [rows, C] : {std::pair<int64_t, int64_t>{1, 16}, {17012, 16}, {925, 300}})
    for (const bool weighted : {false, true}) {
      const std::string name =
          "rms_norm rows" + std::to_string(rows) + " C" + std::to_string(C) + (weighted ? " with a weight" : "");
      const Tensor x = normal_tensor_nd(DType::f32, {rows, C}, 38, 0), w = normal_tensor_nd(DType::f32, {C}, 38, 1),
                   dy = normal_tensor_nd(DType::f32, {rows, C}, 38, 2);
      const Tensor* wp = weighted ? &w : nullptr;
      expect_twins(cuda.rms_norm_forward(x, wp, 1e-6f), host.rms_norm_forward(x, wp, 1e-6f), name);
      expect_twins(cuda.rms_norm_backward_input(x, wp, 1e-6f, dy), host.rms_norm_backward_input(x, wp, 1e-6f, dy),
                   name + " dx");
    }
}

TEST(ModelPrimitivesCudaTwin, Rope) {
  const Primitives& host = primitives(runtime::Backend::host);
  const Primitives& cuda = primitives(runtime::Backend::cuda);
  // x [B, T, H, Dh], the first R dims of each head rotated (R = Dh: the whole head).
  for (const auto& [T, R] : {std::pair<int64_t, int>{1, 16}, {925, 8}, {4253, 16}, {4253, 6}}) {
    const std::string name = "rope T" + std::to_string(T) + " R" + std::to_string(R);
    const Tensor x = normal_tensor_nd(DType::f32, {2, T, 4, 16}, 39, 0);
    const Tensor cos = normal_tensor_nd(DType::f32, {T, R / 2}, 39, 1),
                 sin = normal_tensor_nd(DType::f32, {T, R / 2}, 39, 2);
    expect_twins(cuda.rope_forward(x, cos, sin, R), host.rope_forward(x, cos, sin, R), name);
    expect_twins(cuda.rope_backward_input(x, cos, sin, R), host.rope_backward_input(x, cos, sin, R), name + " adjoint");
  }
}

struct Shape {
  int64_t B, H, T, Dh;
};

TEST(ModelPrimitivesCudaTwin, Attention) {
  const Primitives& host = primitives(runtime::Backend::host);
  const Primitives& cuda = primitives(runtime::Backend::cuda);
  for (const Shape s :
       {Shape{1, 1, 1, 1}, {2, 3, 9, 8}, {1, 4, 12, 16}, {2, 2, 300, 16}, {1, 4, 925, 16}, {1, 4, 4253, 16}}) {
    const std::string name = "attention B" + std::to_string(s.B) + " H" + std::to_string(s.H) + " T" +
                             std::to_string(s.T) + " Dh" + std::to_string(s.Dh);
    const std::vector<int64_t> shape{s.B, s.H, s.T, s.Dh};
    const Tensor q = normal_tensor_nd(DType::f32, shape, 34, 0), v = normal_tensor_nd(DType::f32, shape, 34, 2),
                 d_out = normal_tensor_nd(DType::f32, shape, 34, 3);
    Tensor k = normal_tensor_nd(DType::f32, shape, 34, 1);
    if (s.T > 1)
      k.set_value(0, 40.0);  // key 0 of head 0: scores far from the rest in
                             // every query row of head 0
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.Dh)));
    expect_twins(cuda.sdpa_forward(q, k, v, scale), host.sdpa_forward(q, k, v, scale), name + " o");
    const SdpaGrads h = host.sdpa_backward(q, k, v, scale, d_out), c = cuda.sdpa_backward(q, k, v, scale, d_out);
    expect_twins(c.dq, h.dq, name + " dq");
    expect_twins(c.dk, h.dk, name + " dk");
    expect_twins(c.dv, h.dv, name + " dv");
  }
}

}  // namespace
}  // namespace parity::model
