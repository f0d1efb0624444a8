// rows_independent and batch_vs_batch compare the outputs led by the row extent: a subject whose
// unchecked_outputs leave only an output summed over the rows gives them nothing to compare, and
// they are discarded, not passed; the same subject with its row output checked fails them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops {
namespace {

// y[t, i] = x[t, i] and the column sums s[i] = sum_t x[t, i]: y per row, s over every row.
struct CopyAndColumnSums {
  static OpDecl declaration() {
    return {
        .name = "test_copy_and_column_sums",
        .description = "y = x, s = column sums of x",
        .extents = {{.name = "T", .max = 16}, {.name = "D", .max = 8}},
        .inputs = {{.name = "x", .shape = {"T", "D"}}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "x"},
                    {.name = "s", .shape = {"D"}, .dtype_group = "x"}},
        .dtypes = {DType::f32},
        .row_extent = "T",
    };
  }
  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    auto y = e.output("y");
    auto s = e.output("s");
    const std::int64_t T = e.extent("T"), D = e.extent("D");
    for (std::int64_t i = 0; i < D; ++i) {
      for (std::int64_t t = 0; t < T; ++t) y(t, i) = x(t, i);
      s(i) = e.sum(T, [&](std::int64_t t) { return x(t, i); });
    }
  }
};

// Its y off by the batch's row count in every row of a batch (so batch-dependent), its s right;
// y declared unchecked or not.
class BatchDependentCopy : public OpSubject {
 public:
  explicit BatchDependentCopy(bool y_unchecked) : y_unchecked_(y_unchecked) {}
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = call.extent("T"), D = call.extent("D");
    Tensor y = Tensor::zeros(DType::f32, {T, D}), s = Tensor::zeros(DType::f32, {D});
    for (std::int64_t i = 0; i < D; ++i) {
      float sum = 0;
      for (std::int64_t t = 0; t < T; ++t) {
        y.set_value(t * D + i, x.value_at(t * D + i) + static_cast<double>(T));
        sum += static_cast<float>(x.value_at(t * D + i));
      }
      s.set_value(i, sum);
    }
    return {{"y", y}, {"s", s}};
  }
  std::vector<std::string> unchecked_outputs() const override {
    return y_unchecked_ ? std::vector<std::string>{"y"} : std::vector<std::string>{};
  }

 private:
  bool y_unchecked_;
};

Case copy_case(std::uint64_t seed) {
  return testing::case_of("test_copy_and_column_sums", seed, {{"T", 5}, {"D", 3}},
                          {{"dtype.x", dtype_code(DType::f32)}});
}

TEST(RowOutputs, NoRowOutputToCompareIsADiscardNotAPass) {
  const OpDef op = define_op<CopyAndColumnSums>();
  for (const std::uint64_t seed : {1u, 2u}) {
    BatchDependentCopy only_sums(true);
    for (const Verdict& v :
         {rows_independent(op, copy_case(seed), only_sums), batch_vs_batch(op, copy_case(seed), only_sums)}) {
      EXPECT_EQ(v.outcome, Outcome::discarded) << v.property << ": " << v.detail;
      EXPECT_NE(v.detail.find("no output led by the row extent T"), std::string::npos) << v.detail;
    }
    BatchDependentCopy both(false);
    EXPECT_TRUE(rows_independent(op, copy_case(seed), both).fails());
    EXPECT_TRUE(batch_vs_batch(op, copy_case(seed), both).fails());
  }
}

}  // namespace
}  // namespace parity::ops
