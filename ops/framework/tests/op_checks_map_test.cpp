// The element maps the op framework's checks put on failing verdicts (op_checks.hpp), on the toy
// op y = x * w with subjects of the test's own that go wrong at one known element: the map of a
// failing bitwise check marks that element of that row and nothing else, the map of a failing
// accuracy check puts it above the bound and every other element within.
#include <gtest/gtest.h>

#include <cmath>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>

namespace parity::ops {
namespace {

using testing::Scale;
using testing::scale_case;

constexpr std::int64_t kRows = 6, kCols = 9, kBadRow = 2, kBadElement = 5;

// y = x * w in the output dtype, but element [kBadRow, kBadElement], where a call has that row
// (rows_independent's batch, not a row alone): its last bit flipped, or doubled plus one.
class OffAtOneElement : public OpSubject {
 public:
  enum class Wrong { last_bit_in_a_batch, doubled };
  explicit OffAtOneElement(Wrong wrong) : wrong_(wrong) {}
  OpOutputs run(const OpCall& call) override {
    const Tensor &x = call.input("x"), &w = call.input("w");
    const std::int64_t T = call.extent("T"), D = call.extent("D");
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, D});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < D; ++i) y.set_value(t * D + i, x.value_at(t * D + i) * w.value_at(i));
    const std::int64_t bad = kBadRow * D + kBadElement;
    if (T <= kBadRow) return {{"y", y}};
    if (wrong_ == Wrong::doubled) y.set_value(bad, 2 * y.value_at(bad) + 1);
    else y.set_bits(bad, y.bits_at(bad) ^ 1);
    return {{"y", y}};
  }

 private:
  Wrong wrong_;
};

TEST(OpChecksMap, AFailingBitwiseCheckMarksTheRowAndElementThatDiffer) {
  const OpDef op = define_op<Scale>();
  const Case c = scale_case(kRows, kCols, DType::f32, DType::f32);
  OffAtOneElement subject(OffAtOneElement::Wrong::last_bit_in_a_batch);
  const Verdict v = rows_independent(op, c, subject);
  ASSERT_TRUE(v.fails()) << v.detail;
  ASSERT_TRUE(v.map);
  EXPECT_EQ(v.map->output, "y");
  EXPECT_EQ(v.map->measure, MapMeasure::bits_differ);
  ASSERT_EQ(v.map->rows, kRows);
  ASSERT_EQ(v.map->cols, kCols);
  EXPECT_NE(v.detail.find("row " + std::to_string(kBadRow) + " of a batch of " + std::to_string(kRows)),
            std::string::npos)
      << v.detail;
  // The rows are compared in order up to the first that differs: those before agree, those after
  // are not measured (NaN).
  for (std::int64_t i = 0; i < kRows; ++i)
    for (std::int64_t j = 0; j < kCols; ++j) {
      if (i > kBadRow) EXPECT_TRUE(std::isnan(v.map->at(i, j))) << i << ", " << j;
      else EXPECT_EQ(v.map->at(i, j), i == kBadRow && j == kBadElement ? 1.0 : 0.0) << i << ", " << j;
    }
  const Verdict again = repeatable(op, c, subject);  // the same bits every call: holds, no map
  EXPECT_TRUE(again.holds()) << again.detail;
  EXPECT_FALSE(again.map);
}

TEST(OpChecksMap, AFailingAccuracyCheckPutsTheWrongElementAboveItsBound) {
  const OpDef op = define_op<Scale>();
  const Case c = scale_case(kRows, kCols, DType::f32, DType::f32);
  OffAtOneElement subject(OffAtOneElement::Wrong::doubled);
  const Verdict v = forward_accuracy(op, c, subject);
  ASSERT_TRUE(v.fails()) << v.detail;
  ASSERT_TRUE(v.map);
  EXPECT_EQ(v.map->measure, MapMeasure::error_over_bound);
  ASSERT_EQ(v.map->rows, kRows);
  ASSERT_EQ(v.map->cols, kCols);
  for (std::int64_t i = 0; i < kRows; ++i)
    for (std::int64_t j = 0; j < kCols; ++j) {
      if (i == kBadRow && j == kBadElement) EXPECT_GT(v.map->at(i, j), 1.0);
      else EXPECT_LE(v.map->at(i, j), 1.0) << i << ", " << j;
    }
  // The output's figures come with the failure.
  for (const char* key : {"y_rel_err_vs_fp64", "y_bound_utilisation", "bound_utilisation", "rows_checked"})
    EXPECT_TRUE(v.metrics.contains(key)) << key;
  EXPECT_GT(v.metrics.at("y_bound_utilisation"), 1.0);
  const Verdict one_row = forward_accuracy(op, scale_case(1, kCols, DType::f32, DType::f32), subject);
  EXPECT_TRUE(one_row.holds()) << one_row.detail;  // no row kBadRow: right everywhere, no map
  EXPECT_FALSE(one_row.map);
}

}  // namespace
}  // namespace parity::ops
