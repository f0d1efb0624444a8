// f16 in op declarations: the Case's dtype code, and forward_accuracy's extra rounding of an f16
// output at u = 2^-11: a correctly rounded f16 result at a tie holds its bound, one rounded
// through bf16 (u = 2^-8) does not.
#include <gtest/gtest.h>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>

namespace parity::ops {
namespace {

using testing::Scale;
using testing::scale_case;

// y = x * w in float32, rounded to the output dtype: to nearest even, or through bf16 first.
template <bool kThroughBf16>
class ScaleSubject : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("w");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, D});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < D; ++i) {
        float v = static_cast<float>(x.value_at(t * D + i)) * static_cast<float>(w.value_at(i));
        if (kThroughBf16) v = round_through_bf16(v);
        y.set_value(t * D + i, v);
      }
    return {{"y", std::move(y)}};
  }
};

// test_scale at T = 1, D = 2 with x = (a, a) and w = (1, 1) (float32 inputs), output f16.
Case one_value(float a) {
  Case c = scale_case(1, 2, DType::f32, DType::f16);
  for (std::int64_t i = 0; i < 2; ++i) {
    c.patches.push_back({"x", i, float_bits(a)});
    c.patches.push_back({"w", i, float_bits(1.0f)});
  }
  return c;
}

TEST(OpF16, DtypeCode) {
  EXPECT_EQ(dtype_code(DType::f16), 116);
  EXPECT_EQ(dtype_from_code(116, "f"), DType::f16);
  EXPECT_THROW(dtype_from_code(17, "f"), InputError);
}

TEST(OpF16, AnF16OutputIsBoundedAtTwoToTheMinusEleven) {
  const OpDef op = define_op<Scale>();
  ScaleSubject<false> rne;
  ScaleSubject<true> through_bf16;
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: rounding to even gives 1, an error of exactly
  // u = 2^-11 (relative), which the bound must admit.
  const Case tie = one_value(1.0f + 0x1p-11f);
  EXPECT_EQ(forward_accuracy(op, tie, rne).outcome, Outcome::holds) << forward_accuracy(op, tie, rne).detail;
  // 1 + 2^-9 is an f16 value; through bf16 it becomes 1, an error of 4u: outside.
  const Case quarter = one_value(1.0f + 0x1p-9f);
  EXPECT_EQ(forward_accuracy(op, quarter, rne).outcome, Outcome::holds);
  EXPECT_EQ(forward_accuracy(op, quarter, through_bf16).outcome, Outcome::fails);
}

TEST(OpF16, AnF16InputHoldsF16Bits) {
  const OpDef op = define_op<Scale>();
  Case c = scale_case(2, 3, DType::f16, DType::f32);
  c.patches.push_back({"x", 4, 0x7C00, DType::f16});  // +Inf
  c.patches.push_back({"x", 5, 0x0001, DType::f16});  // denorm_min
  const OpProblem p = materialise(op.decl, c);
  EXPECT_EQ(p.call.inputs.at("x").dtype(), DType::f16);
  EXPECT_TRUE(std::isinf(p.values.inputs.at("x")[4]));
  EXPECT_EQ(p.values.inputs.at("x")[5], 0x1p-24);
  for (const double v : p.values.inputs.at("x")) {
    if (std::isfinite(v)) {
      EXPECT_EQ(f16_to_float(f16_from_double_rne(v)), v);
    }
  }
  EXPECT_NE(c.summary().find("x[4] = inf (f16 bits 0x7c00)"), std::string::npos) << c.summary();
  EXPECT_NE(c.summary().find("x[5] = 5.96046448e-08 (f16 bits 0x0001, f16 denorm min)"), std::string::npos)
      << c.summary();
  Case float32_bits = c;
  float32_bits.patches.push_back({"x", 0, 0x3F800000u});  // float32 bits on an f16 operand
  EXPECT_TRUE(throws_input_error([&] { materialise(op.decl, float32_bits); }, "case.patches[2].dtype"))
      << "a float32 patch of an f16 operand accepted";
  c.patches.push_back({"x", 0, 0x10000, DType::f16});  // wider than f16
  EXPECT_THROW(materialise(op.decl, c), InputError);
}

}  // namespace
}  // namespace parity::ops
