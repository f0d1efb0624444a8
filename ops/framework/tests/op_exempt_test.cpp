// forward_accuracy's exempt elements: where an element's bound admits every finite value of its
// dtype, it checks nothing and counts as exempt, as an infinite bound does: the maximum of a
// product that may overflow (bounded.hpp widens it to twice the product's magnitude).
#include <gtest/gtest.h>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops {
namespace {

// y[t] = max(x[t, 0] * x[t, 1], 1), float32.
struct MaxProduct {
  static OpDecl declaration() {
    return {.name = "test_max_product",
            .description = "y = max(x0 x1, 1)",
            .extents = {{.name = "T", .max = 4}},
            .inputs = {{.name = "x", .shape = {"T", "2"}}},
            .outputs = {{.name = "y", .shape = {"T"}}},
            .dtypes = {DType::f32},
            .row_extent = "T"};
  }
  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    auto y = e.output("y");
    for (std::int64_t t = 0; t < e.extent("T"); ++t)
      y(t) = e.max(2, [&](std::int64_t i) { return i ? R(1.0) : x(t, 0) * x(t, 1); });
  }
};

class MaxProductSubject : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    Tensor y = Tensor::zeros(DType::f32, {x.dim(0)});
    for (std::int64_t t = 0; t < x.dim(0); ++t)
      y.set_value(t, std::max(static_cast<float>(x.value_at(2 * t)) * static_cast<float>(x.value_at(2 * t + 1)), 1.0f));
    return {{"y", std::move(y)}};
  }
};

// Rows (a, b) of x, float32.
Case rows_of(const std::vector<std::pair<float, float>>& rows) {
  Case c = testing::case_of("test_max_product", 1, {{"T", static_cast<std::int64_t>(rows.size())}},
                            {{"dtype.x", dtype_code(DType::f32)}, {"dtype.y", dtype_code(DType::f32)}});
  for (std::size_t t = 0; t < rows.size(); ++t) {
    c.patches.push_back({"x", static_cast<std::int64_t>(2 * t), float_bits(rows[t].first)});
    c.patches.push_back({"x", static_cast<std::int64_t>(2 * t + 1), float_bits(rows[t].second)});
  }
  return c;
}

TEST(OpExempt, ABoundAdmittingEveryFiniteValueChecksNothing) {
  const OpDef op = define_op<MaxProduct>();
  MaxProductSubject subject;
  // 3e38 * 2 may overflow float32 (it does: Inf): the maximum's bound admits every float32.
  const Verdict alone = forward_accuracy(op, rows_of({{3e38f, 2.0f}}), subject);
  EXPECT_EQ(alone.outcome, Outcome::discarded) << alone.detail;
  EXPECT_NE(alone.detail.find("1 exempt"), std::string::npos) << alone.detail;
  // Beside a row whose product cannot overflow, the case is checked there and the other counted.
  const Verdict beside = forward_accuracy(op, rows_of({{3e38f, 2.0f}, {3.0f, 2.0f}}), subject);
  EXPECT_TRUE(beside.holds()) << beside.detail;
  EXPECT_EQ(beside.metrics.at("exempt"), 1.0);
}

}  // namespace
}  // namespace parity::ops
