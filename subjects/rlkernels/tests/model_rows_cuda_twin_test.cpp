// The CUDA DiT rows (model_rows_cuda.hpp) equal their host twins (model_rows.hpp) bit for
// bit, for every function, over odd and reference-sized shapes (up to the 4253-token
// sequence), with and without weights. (The model's linears, attention and SwiGLU gate are
// parity's op kernels, checked in subjects/model/tests/model_primitives_cuda_twin_test.)
// Needs a GPU: exits 77 (ctest: skipped) when cuda_unavailable_reason() is non-empty.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/tensor.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#include <parity/subjects/rlkernels/model_rows.hpp>
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>
#include <parity/subjects/rlkernels/tests/model_rows_test_support.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

using std::int64_t;
using test::normal;

std::int64_t nonzero_elements(const Tensor& t) {
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < t.numel(); ++i) n += t.bits_at(i) != 0;
  return n;
}

void expect_twins(const Tensor& cuda_out, const Tensor& host_out, const std::string& what) {
  ASSERT_GT(nonzero_elements(host_out), 0) << what << ": degenerate case, all zero";
  EXPECT_TRUE(cuda_out.is_contiguous()) << what;
  const BitwiseDiff d = compare_bitwise(cuda_out, host_out);
  EXPECT_TRUE(d.equal()) << what << " (cuda vs host twin): " << d.describe(host_out.shape());
}

TEST(ModelRowsCudaTwin, RmsNorm) {
  for (const int64_t M : {1, 12, 925})
    for (const int64_t C : {1, 16, 64}) {
      const std::string name = "rms M" + std::to_string(M) + " C" + std::to_string(C);
      const Tensor x = normal(DType::f32, {M, C}, 32, 0, 3.0), w = normal(DType::f32, {C}, 32, 1, 1.0);
      const Tensor dy = normal(DType::f32, {M, C}, 32, 2, 1.0);
      for (const Tensor* wp : {&w, static_cast<const Tensor*>(nullptr)}) {
        const std::string n = name + (wp ? "" : " no weight");
        expect_twins(cuda::rms_norm_forward(x, wp, 1e-5f), rms_norm_forward(x, wp, 1e-5f), n + " forward");
        expect_twins(cuda::rms_norm_backward_input(x, wp, 1e-5f, dy), rms_norm_backward_input(x, wp, 1e-5f, dy),
                     n + " backward");
      }
    }
}

TEST(ModelRowsCudaTwin, Rope) {
  const int64_t B = 2, T = 13, H = 4, Dh = 16;
  const Tensor x = normal(DType::f32, {B, T, H, Dh}, 33, 0, 1.0);
  for (const int R : {0, 8, 16}) {
    const Tensor cos = normal(DType::f32, {T, R / 2}, 33, 1, 0.7), sin = normal(DType::f32, {T, R / 2}, 33, 2, 0.7);
    const std::string name = "rope R" + std::to_string(R);
    expect_twins(cuda::rope_forward(x, cos, sin, R), rope_forward(x, cos, sin, R), name + " forward");
    expect_twins(cuda::rope_backward_input(x, cos, sin, R), rope_backward_input(x, cos, sin, R),
                 name + " backward");
  }
}

TEST(ModelRowsCudaTwin, SwigluGateBackward) {
  for (const int64_t M : {1, 17, 925, 4253}) {
    const Tensor ag = normal(DType::f32, {M, 256}, 35, 0, 3.0), du = normal(DType::f32, {M, 128}, 35, 1, 1.0);
    expect_twins(cuda::swiglu_gate_backward(ag, du), swiglu_gate_backward(ag, du), "swiglu gate backward M" + std::to_string(M));
  }
}

}  // namespace
}  // namespace parity::subjects::rlkernels::model

int main(int argc, char** argv) {
  const std::string reason = parity::subjects::rlkernels::cuda_unavailable_reason();
  if (!reason.empty()) {
    std::printf("model_rows_cuda_twin_test skipped: %s\n", reason.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
