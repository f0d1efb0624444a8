// The batch properties rows_permuted, rows_padded and rows_chunked and the batch-shape probes, on
// a toy op of row sums: parity's way of building the batches (batch_shapes.hpp), each property
// holding for a kernel whose rows are independent, failing for the probe that switches plan on
// its batch shape alone and for no other, and discarding where it has nothing to compare; each
// probe a correct kernel alone.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <parity/ops/framework/batch_shape_probes.hpp>
#include <parity/ops/framework/batch_shapes.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops {
namespace {

// y[t] = sum_i x[t, i].
struct RowSums {
  static OpDecl declaration() {
    return {
        .name = "test_row_sums",
        .description = "y = the sums of the rows of x",
        .extents = {{.name = "T", .max = 256}, {.name = "D", .max = 64}},
        .inputs = {{.name = "x", .shape = {"T", "D"}}},
        .outputs = {{.name = "y", .shape = {"T"}, .dtype_group = "x"}},
        .dtypes = {DType::f32},
        .row_extent = "T",
        .reduced_extents = {"D"},
    };
  }
  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    auto y = e.output("y");
    for (std::int64_t t = 0; t < e.extent("T"); ++t)
      y(t) = e.sum(e.extent("D"), [&](std::int64_t i) { return x(t, i); });
  }
};

// Each row summed in float32 from its first element (`reversed`: from its last): two correct
// plans (reductions in any order, Arithmetic's default) with other bits.
class RowSumKernel : public OpSubject {
 public:
  explicit RowSumKernel(bool reversed) : reversed_(reversed) {}
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    Tensor y = Tensor::zeros(DType::f32, {T});
    for (std::int64_t t = 0; t < T; ++t) {
      float s = 0;
      for (std::int64_t k = 0; k < D; ++k) s += static_cast<float>(x.value_at(t * D + (reversed_ ? D - 1 - k : k)));
      y.set_value(t, s);
    }
    return {{"y", y}};
  }

 private:
  bool reversed_;
};

std::unique_ptr<OpSubject> probe(BatchTrigger trigger) {
  return std::make_unique<BatchShapeProbe>(trigger, "x", "T", 8, std::make_unique<RowSumKernel>(false),
                                           std::make_unique<RowSumKernel>(true));
}

Case sums_case(std::int64_t T, std::uint64_t seed, std::int64_t D = 32) {
  return testing::case_of("test_row_sums", seed, {{"T", T}, {"D", D}}, {{"dtype.x", dtype_code(DType::f32)}});
}

using Check = Verdict (*)(const OpDef&, const Case&, OpSubject&);
const std::vector<std::pair<const char*, Check>> kBatchChecks = {{"rows_permuted", &rows_permuted},
                                                                 {"rows_padded", &rows_padded},
                                                                 {"rows_chunked", &rows_chunked},
                                                                 {"rows_independent", &rows_independent},
                                                                 {"batch_vs_batch", &batch_vs_batch}};

TEST(BatchShapes, BuildsTheBatchesTheTransformsRun) {
  EXPECT_EQ(padded_rows(1), 2);
  EXPECT_EQ(padded_rows(5), 8);
  EXPECT_EQ(padded_rows(8), 16);
  EXPECT_EQ(chunk_rows(127), 43);
  EXPECT_EQ(chunk_rows(129), 43);
  EXPECT_EQ(chunk_rows(2), 1);
  Tensor x = Tensor::zeros(DType::f32, {4, 2});
  for (const auto& [i, v] : std::vector<std::pair<int, double>>{{0, 1}, {2, 3}, {4, 1}, {7, -0.0}}) x.set_value(i, v);
  // Norms 1, 9, 1, 0: descending, the tie by index.
  EXPECT_EQ(descending_norm_order(x), (std::vector<std::int64_t>{1, 0, 2, 3}));
  EXPECT_FALSE(sorted_by_descending_norm(x));
  EXPECT_FALSE(last_row_is_zero(x)) << "-0 is not a padding row's +0";
  x.set_value(7, 0.0);
  EXPECT_TRUE(last_row_is_zero(x));
}

TEST(BatchShapes, RowGatherCopiesRowsAndPadsWithZeros) {
  const OpDecl d = RowSums::declaration();
  const OpProblem p = materialise(d, sums_case(3, 1, 4));
  const OpProblem g = row_gather(d, p, {2, 0, kZeroRow});
  EXPECT_EQ(rows(d, g), 3);
  const Tensor& x = g.call.inputs.at("x");
  for (std::int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(x.bits_at(i), p.call.inputs.at("x").bits_at(8 + i));
    EXPECT_EQ(x.bits_at(4 + i), p.call.inputs.at("x").bits_at(i));
    EXPECT_EQ(x.bits_at(8 + i), 0u);
    EXPECT_EQ(g.values.inputs.at("x")[static_cast<std::size_t>(i)], p.values.inputs.at("x")[8 + i]);
  }
}

TEST(BatchShapes, IndependentRowsHoldEveryBatchProperty) {
  const OpDef op = define_op<RowSums>();
  for (const std::int64_t T : {2, 5, 16, 43, 128})
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      RowSumKernel kernel(false);
      for (const auto& [name, check] : kBatchChecks) {
        const Verdict v = check(op, sums_case(T, seed), kernel);
        EXPECT_FALSE(v.fails()) << name << " T=" << T << ": " << v.detail;
      }
      EXPECT_EQ(rows_padded(op, sums_case(T, seed), kernel).outcome, Outcome::holds);
      EXPECT_EQ(rows_chunked(op, sums_case(T, seed), kernel).outcome, Outcome::holds);
    }
}

TEST(BatchShapes, DiscardsWhereThereIsNoOtherBatch) {
  const OpDef op = define_op<RowSums>();
  RowSumKernel kernel(false);
  EXPECT_EQ(rows_permuted(op, sums_case(1, 1), kernel).outcome, Outcome::discarded);
  EXPECT_EQ(rows_chunked(op, sums_case(1, 1), kernel).outcome, Outcome::discarded);
  EXPECT_EQ(rows_padded(op, sums_case(1, 1), kernel).outcome, Outcome::holds) << "one row still pads to two";
  // A batch of two rows already by descending norm runs swapped (the order reversed): checked.
  int sorted = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Case c = sums_case(2, seed);
    const OpProblem p = materialise(op.decl, c);
    const Tensor& x = p.call.inputs.at("x");
    if (!sorted_by_descending_norm(x)) continue;
    ++sorted;
    EXPECT_EQ(permuted_order(x), (std::vector<std::int64_t>{1, 0}));
    const Verdict v = rows_permuted(op, c, kernel);
    EXPECT_EQ(v.outcome, Outcome::holds) << v.detail;
  }
  EXPECT_GT(sorted, 0) << "no seed of 20 drew two rows in order: nothing was checked";
}

// Each probe is failed by its own property, with the row and a map, and by no other.
TEST(BatchShapes, EachProbeIsCaughtByItsPropertyAlone) {
  const OpDef op = define_op<RowSums>();
  const struct {
    BatchTrigger trigger;
    const char* property;
    std::int64_t T;
    const char* says;
  } rows[] = {{BatchTrigger::sorted, "rows_permuted", 16, "of the batch reordered by the norms of x's rows"},
              {BatchTrigger::padded, "rows_padded", 5, "padded with 3 rows of +0 to 8"},
              {BatchTrigger::at_43_rows, "rows_chunked", 128, "chunks of up to 43 rows"}};
  for (const auto& r : rows) {
    const Case c = sums_case(r.T, 1);
    for (const auto& [name, check] : kBatchChecks) {
      const std::unique_ptr<OpSubject> s = probe(r.trigger);
      const Verdict v = check(op, c, *s);
      if (std::string(name) != r.property) {
        EXPECT_FALSE(v.fails()) << r.property << "'s probe fails " << name << ": " << v.detail;
        continue;
      }
      ASSERT_TRUE(v.fails()) << name << " misses its probe: " << v.detail;
      EXPECT_EQ(v.detail.rfind("row ", 0), 0u) << v.detail;
      EXPECT_NE(v.detail.find(r.says), std::string::npos) << v.detail;
      ASSERT_TRUE(v.map.has_value());
      EXPECT_EQ(v.map->output, "y");
    }
  }
}

// A probe alone is a correct kernel: its host plan's bits where not triggered (one row), and
// within the accuracy bound on the batch that triggers it.
TEST(BatchShapes, EachProbeIsACorrectKernelAlone) {
  const OpDef op = define_op<RowSums>();
  for (const BatchTrigger t : {BatchTrigger::sorted, BatchTrigger::padded, BatchTrigger::at_43_rows}) {
    RowSumKernel host(false);
    const std::unique_ptr<OpSubject> s = probe(t);
    const Verdict same = cross_backend_bitwise(op, sums_case(1, 3), *s, host);
    EXPECT_EQ(same.outcome, Outcome::holds) << same.detail;
  }
  Case padded = sums_case(5, 2);
  for (std::int64_t i = 4 * 32; i < 5 * 32; ++i) padded.patches.push_back({.operand = "x", .index = i, .bits = 0});
  const struct {
    BatchTrigger trigger;
    Case c;
  } triggering[] = {{BatchTrigger::padded, padded}, {BatchTrigger::at_43_rows, sums_case(43, 2)}};
  for (const auto& [trigger, c] : triggering) {
    const std::unique_ptr<OpSubject> s = probe(trigger);
    const auto* p = dynamic_cast<const BatchShapeProbe*>(s.get());
    ASSERT_TRUE(p->triggered(materialise(op.decl, c).call)) << "the case must run the other plan";
    const Verdict v = forward_accuracy(op, c, *s);
    EXPECT_EQ(v.outcome, Outcome::holds) << v.detail;
  }
}

}  // namespace
}  // namespace parity::ops
