// lora_backward's bound against a correct LoRA backward that places the scale where parity's
// own kernel does not: on partial sums (g in two halves, each scaled before they are added), on
// an operand (dA = sum_t g (s x)) and on dy (dB). It must hold on generated cases, and where s x
// overflows float32 (x = bf16 max, s = 2) with the exact dA finite, that subject's Inf must be
// accepted and the element counted as one that may overflow, not failed; the same subject with
// dA off by 2^-10 must fail, and so must parity's host twin with its finite dA off by 2^-10 at
// that very element (an element that may overflow is not exempt from its bound). Test subjects
// only.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_backward/tests/lora_backward_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace {

using namespace parity::ops::lora_backward::testing;  // at, low_rank, ..., and the LoRA types

// The backward places s as the file's comment says. `skewed`: every dA element multiplied by
// 1 + 2^-10 (a wrong kernel, not a permitted order).
template <bool skewed>
class ScalePlaced final : public BackwardOf {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), R = in.A.dim(0);
    const float s = in.scale;
    std::vector<float> g(T * R), sg(T * R);
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < R; ++j) {
        float first = 0, second = 0;
        for (std::int64_t n = 0; n < N; ++n) (2 * n < N ? first : second) += at(dy, t * N + n) * at(in.B, n * R + j);
        g[t * R + j] = first + second;
        sg[t * R + j] = s * first + s * second;  // s on each partial sum
      }
    LoraGradients out = zero_gradients(in);
    for (std::int64_t j = 0; j < R; ++j)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0;
        for (std::int64_t t = 0; t < T; ++t) acc = acc + g[t * R + j] * (s * at(in.x, t * K + k));  // s on x
        out.dA.set_value(j * K + k, static_cast<double>(skewed ? acc * (1.0f + 0x1p-10f) : acc));
      }
    set_dB_scaled_dy(out, in, dy, low_rank(in));  // s on dy
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0;
        for (std::int64_t n = 0; n < N; ++n) acc = acc + at(dy, t * N + n) * at(in.W, n * K + k);
        for (std::int64_t j = 0; j < R; ++j) acc = acc + sg[t * R + j] * at(in.A, j * K + k);
        out.dx.set_value(t * K + k, static_cast<double>(acc));
      }
    return out;
  }
};

// parity's host twin with every dA element multiplied by 1 + 2^-10.
class SkewedTwin final : public BackwardOf {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients out = host_backward(in, dy);
    for (std::int64_t i = 0; i < out.dA.numel(); ++i)
      out.dA.set_value(i, static_cast<double>(at(out.dA, i) * (1.0f + 0x1p-10f)));
    return out;
  }
};

template <bool skewed>
parity::ops::OpSubjectInfo scale_placed(const char* name) {
  return {.name = name,
          .backend = "host",
          .description = "plain float32, the scale on partial sums and operands (lora_backward_scale_placement_test)",
          .make = &parity::ops::make_op_subject<ScalePlaced<skewed>>};
}

PARITY_REGISTER_OP_SUBJECT(scale_placed, "lora_backward", scale_placed<false>("scale-placed"));
PARITY_REGISTER_OP_SUBJECT(scale_placed_skewed, "lora_backward", scale_placed<true>("scale-placed-skewed-dA"));
PARITY_REGISTER_OP_SUBJECT(skewed_twin, "lora_backward",
                           (parity::ops::OpSubjectInfo{.name = "host-twin-skewed-dA",
                                                       .backend = "host",
                                                       .description = "parity's host twin, dA off by 2^-10",
                                                       .make = &parity::ops::make_op_subject<SkewedTwin>}));

const parity::gen::Family& family() { return parity::ops::find_op_family("lora_backward"); }

TEST(LoraBackwardScalePlacement, HoldsOnGeneratedCases) {
  const auto result = family().run("scale-placed", "forward_accuracy", {.cases = 30, .write_reproducer = false});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_GT(result.cases, 0);
}

// T = N = K = r = 1, s = 2, x = bf16 max, A = W = B = 1/16, dy = 1: s x overflows float32, the
// exact dA = s g x = 4.2e37 does not.
parity::Case overflowing_scaled_x() {
  parity::Case c;
  c.family = "lora_backward";
  c.seed = 7;
  c.dims = {{"T", 1}, {"N", 1}, {"K", 1}, {"r", 1}};
  c.params = {{"scale", 2.0},
              {"dtype.act", parity::ops::dtype_code(DType::bf16)},
              {"dtype.adapter", parity::ops::dtype_code(DType::f32)}};
  const std::uint64_t sixteenth = parity::float_bits(0.0625f);
  c.patches = {{"x", 0, 0x7f7f, DType::bf16},
               {"A", 0, sixteenth, DType::f32},
               {"W", 0, 0x3d80, DType::bf16},
               {"B", 0, sixteenth, DType::f32},
               {"dy", 0, 0x3f80, DType::bf16}};
  return c;
}

TEST(LoraBackwardScalePlacement, AnInfWhereAnOperandOverflowsOnceScaledIsAcceptedAndCounted) {
  const parity::Verdict v = family().check("scale-placed", "forward_accuracy", overflowing_scaled_x());
  EXPECT_TRUE(v.holds()) << v.detail;
  ASSERT_TRUE(v.metrics.contains("may_overflow")) << v.detail;
  EXPECT_GE(v.metrics.at("may_overflow"), 1.0) << v.detail;
  EXPECT_GE(v.metrics.at("overflowed"), 1.0) << "s on x makes this subject's dA Inf: " << v.detail;
  EXPECT_EQ(v.metrics.at("exempt"), 0.0) << v.detail;
}

TEST(LoraBackwardScalePlacement, AWrongFiniteValueWhereSomeOrderMayOverflowIsCaught) {
  const parity::Verdict v = family().check("host-twin-skewed-dA", "forward_accuracy", overflowing_scaled_x());
  EXPECT_TRUE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("dA"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("some permitted order may overflow there"), std::string::npos) << v.detail;
  EXPECT_EQ(v.detail.find(" = inf"), std::string::npos) << "the twin's dA is finite: " << v.detail;
  EXPECT_EQ(v.detail.find(" = nan"), std::string::npos) << "the twin's dA is finite: " << v.detail;
  // Every output's figures come with the failure, dB's (checked after dA) included: the gate reports them.
  for (const char* key : {"dx_rel_err_vs_fp64", "dA_rel_err_vs_fp64", "dB_rel_err_vs_fp64", "dx_bound_utilisation",
                          "dA_bound_utilisation", "dB_bound_utilisation", "bound_utilisation"})
    EXPECT_TRUE(v.metrics.contains(key)) << key;
  EXPECT_GT(v.metrics.at("dA_bound_utilisation"), 1.0);
  EXPECT_LE(v.metrics.at("dB_bound_utilisation"), 1.0);
}

TEST(LoraBackwardScalePlacement, AWrongDAIsStillCaught) {
  const auto result =
      family().run("scale-placed-skewed-dA", "forward_accuracy", {.cases = 30, .write_reproducer = false});
  EXPECT_FALSE(result.passed) << result.message;
  ASSERT_TRUE(result.verdict.has_value()) << result.message;
  EXPECT_NE(result.verdict->detail.find("dA"), std::string::npos) << result.verdict->detail;
}

}  // namespace
