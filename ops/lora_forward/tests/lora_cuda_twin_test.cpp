// The CUDA LoRA kernel (the parity-cuda subjects of lora_forward and lora_backward) equals its host
// twin (LoraHost<StandardArithmetic>) bit for bit: y, dx, dA and dB, over shapes at the tile edges (64 x 64 outputs,
// 16-deep stages), the LoRA reference shapes, transposed / padded / offset layouts, bf16 rounding midpoints and a NaN.
// Needs a GPU: without one its main (parity_cuda_gtest_main) exits 77 (ctest: skipped).
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/core/tensor.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>

namespace parity::ops::lora_forward {
namespace {

using LoraInputs = LoraOperands;

// A call of lora_forward (no dy) or lora_backward on `in`.
OpCall call_of(const LoraInputs& in, const Tensor* dy = nullptr) {
  OpCall call{.extents = {{"T", in.x.dim(0)}, {"N", in.W.dim(0)}, {"K", in.x.dim(1)}, {"r", in.A.dim(0)}},
              .inputs = {{"x", in.x}, {"W", in.W}, {"A", in.A}, {"B", in.B}},
              .params = {{"scale", in.scale}},
              .output_dtypes = {{"y", DType::bf16}},
              .lengths = {}};
  if (dy) {
    call.inputs.emplace("dy", *dy);
    call.output_dtypes = {{"dx", DType::bf16}, {"dA", DType::f32}, {"dB", DType::f32}};
  }
  return call;
}

enum class Patch { none, midpoints, nan };

struct TwinCase {
  std::string name;  // gtest name: rerun one case with --gtest_filter=*/<name>
  std::int64_t T, N, K, r;
  float scale;
  Patch patch = Patch::none;
  Layout x{}, W{}, A{}, B{}, dy{};
};

// gtest prints a failing parameter with this.
void PrintTo(const TwinCase& c, std::ostream* os) { *os << c.name; }

const Layout kTransposedPadded{true, 3, 5};
const Layout kRowPadded{false, 7, 2};
const Layout kTransposed{true, 0, 0};
const Layout kOffset{false, 0, 11};

std::vector<TwinCase> twin_cases() {
  return {
      {"T1_N1_K1_r1", 1, 1, 1, 1, 1.0f},
      {"T3_N5_K7_r2", 3, 5, 7, 2, 0.5f},
      {"T3_N5_K7_r2_nan", 3, 5, 7, 2, 0.5f, Patch::nan},
      {"T33_N65_K129_r4", 33, 65, 129, 4, 4.0f},
      {"T33_N65_K129_r4_midpoints", 33, 65, 129, 4, 4.0f, Patch::midpoints},
      {"T33_N65_K129_r4_strided", 33, 65, 129, 4, 4.0f, Patch::none, kTransposedPadded, kRowPadded, kTransposed,
       kOffset, kTransposedPadded},
      {"T64_N64_K64_r8", 64, 64, 64, 8, 2.0f},
      {"T65_N63_K17_r3_strided", 65, 63, 17, 3, 1.7f, Patch::none, kRowPadded, kTransposedPadded, kOffset,
       kTransposedPadded, kRowPadded},
      {"T70_N512_K384_r16", 70, 512, 384, 16, 2.0f},
      {"T70_N512_K384_r16_transposed_midpoints", 70, 512, 384, 16, 2.0f, Patch::midpoints, kTransposed, kTransposed,
       kTransposed, kTransposed, kTransposed},
      {"T257_N2048_K1024_r16", 257, 2048, 1024, 16, 2.0f},
  };
}

struct Operands {
  LoraInputs in;
  Tensor dy;
};

// The case's inputs, patched, then placed under its layouts.
Operands make_operands(const TwinCase& c, std::uint64_t seed) {
  Tensor x = normal_tensor(DType::bf16, c.T, c.K, seed, 0, 1.0);
  Tensor W = normal_tensor(DType::bf16, c.N, c.K, seed, 1, 0.05);
  Tensor A = normal_tensor(DType::f32, c.r, c.K, seed, 2, 0.05);
  Tensor B = normal_tensor(DType::f32, c.N, c.r, seed, 3, 0.05);
  Tensor dy = normal_tensor(DType::bf16, c.T, c.N, seed, 4, 1.0);
  if (c.patch == Patch::midpoints) {
    // Exact bf16 midpoints (0x3F808000 = 1 + 2^-8) and their neighbours in the f32 operands.
    A.set_bits(0, bf16_straddle_bits(0x3F80, 0));
    A.set_bits(A.numel() - 1, bf16_straddle_bits(0xBD21, 0));
    B.set_bits(0, bf16_straddle_bits(0x3C81, -1));
    B.set_bits(B.numel() / 2, bf16_straddle_bits(0x3C81, 1));
  } else if (c.patch == Patch::nan) {
    x.set_bits(c.K / 2, kBf16CanonicalNaN);  // row 0: y row 0, dA column K/2, all of dB
  }
  return {{c.x.place(x), c.W.place(W), c.A.place(A), c.B.place(B), c.scale}, c.dy.place(dy)};
}

std::int64_t nonzero_elements(const Tensor& t) {
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < t.numel(); ++i) n += t.bits_at(i) != 0;
  return n;
}

void expect_bitwise(const Tensor& cuda, const Tensor& host, const char* what) {
  EXPECT_TRUE(cuda.is_contiguous()) << what << " is not contiguous";
  const BitwiseDiff diff = compare_bitwise(cuda, host);
  EXPECT_TRUE(diff.equal()) << what << " (cuda vs host twin): " << diff.describe(host.shape());
}

class LoraCudaTwin : public ::testing::TestWithParam<TwinCase> {};

TEST_P(LoraCudaTwin, ForwardAndBackwardEqualTheHostTwinBitwise) {
  const TwinCase& c = GetParam();
  SCOPED_TRACE("rerun: lora_cuda_twin_test --gtest_filter='Shapes/LoraCudaTwin.*/" + c.name + "'");
  const Operands ops = make_operands(c, 0x10AA + static_cast<std::uint64_t>(c.T * 31 + c.N));
  const LoraHost<StandardArithmetic> host;

  const Tensor y_host = host.forward(ops.in);
  const Tensor y_cuda = make_forward_cuda_kernel()->run(call_of(ops.in)).at("y");
  ASSERT_GT(nonzero_elements(y_host), 0) << "degenerate case: y is all zero";
  expect_bitwise(y_cuda, y_host, "y");

  const LoraGradients g_host = host.backward(ops.in, ops.dy);
  const OpOutputs g_cuda = make_backward_cuda_kernel()->run(call_of(ops.in, &ops.dy));
  ASSERT_GT(nonzero_elements(g_host.dx), 0) << "degenerate case: dx is all zero";
  ASSERT_GT(nonzero_elements(g_host.dA), 0) << "degenerate case: dA is all zero";
  ASSERT_GT(nonzero_elements(g_host.dB), 0) << "degenerate case: dB is all zero";
  EXPECT_EQ(g_cuda.size(), 3u) << "the backward returns dx, dA and dB alone";
  expect_bitwise(g_cuda.at("dx"), g_host.dx, "dx");
  expect_bitwise(g_cuda.at("dA"), g_host.dA, "dA");
  expect_bitwise(g_cuda.at("dB"), g_host.dB, "dB");

  if (c.patch == Patch::nan) {
    EXPECT_TRUE(bf16_is_nan(static_cast<std::uint16_t>(y_cuda.bits_at(0)))) << "NaN did not reach y";
    EXPECT_FALSE(bf16_is_nan(static_cast<std::uint16_t>(y_cuda.bits_at(c.N)))) << "NaN leaked into row 1";
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, LoraCudaTwin, ::testing::ValuesIn(twin_cases()),
                         [](const ::testing::TestParamInfo<TwinCase>& info) { return info.param.name; });

// y[0, n] = bf16(1 + B[n, 0]) lands exactly on chosen f32 values around bf16 rounding
// boundaries (x = W = A = 1, s = 1, so every chain is exact): ties go to even on both sides.
TEST(LoraCudaTwinRounding, OutputsOnBf16MidpointsRoundToEven) {
  struct Straddle {
    std::uint16_t hi;
    std::int32_t d;
    std::uint16_t expected;
  };
  const std::vector<Straddle> cases = {{0x3F80, 0, 0x3F80}, {0x3F80, -1, 0x3F80}, {0x3F80, 1, 0x3F81},
                                       {0x3F81, 0, 0x3F82}, {0x3F81, -1, 0x3F81}, {0x3FFF, 0, 0x4000}};
  const auto N = static_cast<std::int64_t>(cases.size());
  LoraInputs in{Tensor::zeros(DType::bf16, {1, 1}), Tensor::zeros(DType::bf16, {N, 1}),
                Tensor::zeros(DType::f32, {1, 1}), Tensor::zeros(DType::f32, {N, 1}), 1.0f};
  in.x.set_value(0, 1.0);
  in.A.set_value(0, 1.0);
  for (std::int64_t n = 0; n < N; ++n) {
    in.W.set_value(n, 1.0);
    in.B.set_value(n, bits_float(bf16_straddle_bits(cases[n].hi, cases[n].d)) - 1.0f);
  }
  const Tensor y_host = LoraHost<StandardArithmetic>().forward(in);
  const Tensor y_cuda = make_forward_cuda_kernel()->run(call_of(in)).at("y");
  for (std::int64_t n = 0; n < N; ++n) {
    EXPECT_EQ(y_host.bits_at(n), cases[n].expected) << "host twin, column " << n;
    EXPECT_EQ(y_cuda.bits_at(n), cases[n].expected) << "cuda, column " << n;
  }
}

}  // namespace
}  // namespace parity::ops::lora_forward
