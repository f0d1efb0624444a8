// The LibTorch LoRA subject against a direct float64 evaluation of docs/math.md, "LoRA linear":
// accuracy of y, dx, dA, dB, the frozen base and input validation. Whether its bits depend on
// the operands' layout or the batch is LibTorch's and its BLAS's, and changes with the CPU
// kernel: a finding (`parity gate` findings, `parity check lora --subject torch-cpu`), never
// asserted here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

#include <parity/core/build_info.hpp>
#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/subjects/torch/lora_torch.hpp>

namespace parity::subjects::torch_impl {
namespace {

struct Shape {
  std::int64_t T, N, K, r;
};

void PrintTo(const Shape& s, std::ostream* os) { *os << "T" << s.T << " N" << s.N << " K" << s.K << " r" << s.r; }

// Philox normals times `gain`, rounded to the dtype: every bit depends only on the seed.
Tensor filled(DType dtype, std::int64_t rows, std::int64_t cols, std::uint32_t stream, double gain) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  for (std::int64_t i = 0; i < t.numel(); ++i)
    t.set_value(i, gain * philox_normal(2024, stream, static_cast<std::uint64_t>(i)));
  return t;
}

LoraInputs make_inputs(const Shape& s) {
  const double k_gain = 1.0 / std::sqrt(static_cast<double>(s.K));
  return LoraInputs{filled(DType::bf16, s.T, s.K, 0, 1.0), filled(DType::bf16, s.N, s.K, 1, k_gain),
                    filled(DType::f32, s.r, s.K, 2, k_gain), filled(DType::f32, s.N, s.r, 3, 0.5), 2.0f};
}

Tensor make_dy(const Shape& s) { return filled(DType::bf16, s.T, s.N, 4, 1.0); }

// C[m][n] = sum_k a(m, k) b(n, k) over row-major double matrices, with a and b optionally
// read transposed: the one product every reference formula below needs.
std::vector<double> product(const std::vector<double>& a, bool a_t, const std::vector<double>& b, bool b_t,
                            std::int64_t M, std::int64_t N, std::int64_t K) {
  std::vector<double> c(static_cast<std::size_t>(M * N), 0.0);
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t k = 0; k < K; ++k)
        c[m * N + n] += (a_t ? a[k * M + m] : a[m * K + k]) * (b_t ? b[k * N + n] : b[n * K + k]);
  return c;
}

std::vector<double> axpy(double alpha, const std::vector<double>& x, std::vector<double> y) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += alpha * x[i];
  return y;
}

double norm(const std::vector<double>& v) {
  double sum = 0.0;
  for (double e : v) sum += e * e;
  return std::sqrt(sum);
}

// ||got - ref|| / ||ref||, asserting that the reference is not all zero (docs/design.md, "Style" 9).
double relative_error(const Tensor& got, const std::vector<double>& ref) {
  EXPECT_GT(norm(ref), 0.0) << "degenerate reference";
  const std::vector<double> values = got.values();
  EXPECT_EQ(values.size(), ref.size());
  const ValueDiff d = compare_values(values, ref);
  EXPECT_EQ(d.nonfinite_mismatch, 0);
  return d.normwise_rel;
}

class LoraTorchShapes : public ::testing::TestWithParam<Shape> {};

// y and dx carry one bf16 rounding (u = 2^-8), dA and dB are float32 throughout.
TEST_P(LoraTorchShapes, MatchesFloat64Reference) {
  const Shape s = GetParam();
  const LoraInputs in = make_inputs(s);
  const Tensor dy = make_dy(s);
  const auto x = in.x.values(), W = in.W.values(), A = in.A.values(), B = in.B.values();
  const auto G = dy.values();
  const double sc = in.scale;

  const auto h = product(x, false, A, false, s.T, s.r, s.K);               // x A^T
  const auto y_ref = axpy(sc, product(h, false, B, false, s.T, s.N, s.r),  // + s h B^T
                          product(x, false, W, false, s.T, s.N, s.K));     // x W^T
  auto dh = product(G, false, B, true, s.T, s.r, s.N);                     // s G B
  for (double& e : dh) e *= sc;
  auto dB_ref = product(G, true, h, true, s.N, s.r, s.T);  // s G^T h
  for (double& e : dB_ref) e *= sc;
  const auto dA_ref = product(dh, true, x, true, s.r, s.K, s.T);             // dh^T x
  const auto dx_ref = axpy(1.0, product(dh, false, A, true, s.T, s.K, s.r),  // G W + dh A
                           product(G, false, W, true, s.T, s.K, s.N));

  const auto subject = make_lora_torch(false);
  const Tensor y = subject->forward(in);
  EXPECT_EQ(y.dtype(), DType::bf16);
  EXPECT_LE(relative_error(y, y_ref), 1e-2);
  EXPECT_EQ(subject->last_path().name, "torch-cpu");

  const LoraGradients g = subject->backward(in, dy);
  EXPECT_EQ(g.dx.dtype(), DType::bf16);
  EXPECT_EQ(g.dA.dtype(), DType::f32);
  EXPECT_EQ(g.dB.dtype(), DType::f32);
  EXPECT_LE(relative_error(g.dx, dx_ref), 1e-2);
  EXPECT_LE(relative_error(g.dA, dA_ref), 1e-5);
  EXPECT_LE(relative_error(g.dB, dB_ref), 1e-5);
  EXPECT_FALSE(g.dW.has_value()) << "the base weight is frozen";
}

INSTANTIATE_TEST_SUITE_P(Small, LoraTorchShapes,
                         ::testing::Values(Shape{1, 1, 1, 1}, Shape{3, 5, 7, 2}, Shape{17, 33, 64, 4},
                                           Shape{70, 48, 96, 8}));

TEST(LoraTorch, RefusesMismatchedShapes) {
  const Shape s{3, 5, 7, 2};
  LoraInputs in = make_inputs(s);
  const auto subject = make_lora_torch(false);
  EXPECT_THROW(subject->backward(in, filled(DType::bf16, s.T, s.N + 1, 4, 1.0)), InputError);
  in.A = filled(DType::f32, s.r, s.K + 1, 2, 1.0);
  EXPECT_THROW(subject->forward(in), InputError);
}

TEST(LoraTorch, ReportsItsAvailability) {
  EXPECT_EQ(lora_torch_unavailable_reason(false), "");
  // The headers compiled against are the LibTorch configure found (1.13.0, or 2.11.0 of
  // "2.11.0+cu130"): not another LibTorch's headers earlier on the include path.
  EXPECT_EQ(build_info().libtorch.rfind(torch_version_text(), 0), 0u)
      << "headers " << torch_version_text() << ", configured " << build_info().libtorch;
  if (lora_torch_unavailable_reason(true).empty()) {
    EXPECT_EQ(make_lora_torch(true)->last_path().name, "torch-cuda");
  } else {
    EXPECT_THROW(make_lora_torch(true), InputError);
  }
}

}  // namespace
}  // namespace parity::subjects::torch_impl
