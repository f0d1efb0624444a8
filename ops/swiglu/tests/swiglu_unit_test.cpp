// parity's SwiGLU op families against their documented contracts: the backward reference is the
// gradient of the forward reference (central differences of the double oracle); on hand-made cases
// the kernels are within their derived bounds where the fast-exp, bf16-intermediate and
// swapped-halves probes are not; the dropped-tail probes wrong exactly where F is odd (the
// backward's from 128 rows on, caught as batch variance); a saturated gate (exp(-a) overflowing
// float32) giving silu's limit -0 and zero gradients, which the bounds cover (may_overflow).
#include <gtest/gtest.h>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/gradient_check.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::swiglu {
namespace {

const testing::OpUnderTest forward{"swiglu"}, backward{"swiglu_backward"};

Case gates(const testing::OpUnderTest& f, std::int64_t T, std::int64_t F, std::uint64_t seed, double scale = 1.0) {
  return testing::case_of(f.name, seed, {{"T", T}, {"F", F}}, {{"dtype.act", 32}, {"scale.x", scale}});
}

// dx is the gradient of y (testing::gradient_mismatches), on gates of scale 1 and 30.
TEST(SwigluReference, TheBackwardIsTheGradientOfTheForward) {
  for (const double scale : {1.0, 30.0})
    for (const std::uint64_t seed : {11u, 12u})
      for (const std::string& fault : testing::gradient_mismatches(
               forward.def(), backward.def(), gates(backward, 3, 7, seed, scale), {{"y", "dy"}}, {"x"}))
        ADD_FAILURE() << fault;
}

TEST(SwigluKernel, WithinItsBoundWhereTheArithmeticProbesAreNot) {
  for (const testing::OpUnderTest* f : {&forward, &backward})
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      const Case c = gates(*f, 3, 200, seed);
      EXPECT_TRUE(forward_accuracy(f->def(), c, *f->make("parity-host")).holds()) << f->name;
      for (const char* probe : {"probe-fast-exp", "probe-bf16-intermediate", "probe-swapped-halves"})
        EXPECT_TRUE(forward_accuracy(f->def(), c, *f->make(probe)).fails())
            << f->name << " " << probe << " seed " << seed;
    }
}

TEST(SwigluKernel, TheDroppedTailIsWrongExactlyForOddF) {
  for (const std::int64_t F : {1, 2, 7, 8, 255, 256}) {
    const Verdict v = forward_accuracy(forward.def(), gates(forward, 2, F, 5), *forward.make("probe-dropped-tail"));
    EXPECT_EQ(v.fails(), F % 2 == 1) << "F = " << F << ": " << v.detail;
  }
}

// The backward's tail is dropped from 128 rows on: a row alone is right, the
// same row in the batch is not.
TEST(SwigluKernel, TheBackwardsDroppedTailDependsOnTheBatch) {
  const OpDef& op = backward.def();
  const auto kernel = backward.make("parity-host");
  const auto probe = backward.make("probe-dropped-tail-from-128-rows");
  for (const std::int64_t F : {7, 8}) {
    const Case c = gates(backward, 128, F, 5);
    EXPECT_TRUE(rows_independent(op, c, *kernel).holds());
    const Verdict v = rows_independent(op, c, *probe);
    EXPECT_EQ(v.fails(), F % 2 == 1) << "F = " << F << ": " << v.detail;
  }
  EXPECT_TRUE(forward_accuracy(op, gates(backward, 127, 7, 5), *probe).holds());
}

// silu(-100) = -100 / (1 + exp(100)): exp(100) overflows float32, 1 / Inf = 0, and the bound of an
// element whose divisor may overflow covers that 0 (bounded.hpp): checked, and -0 is within it.
TEST(SwigluKernel, ASaturatedGateGivesMinusZeroWithinItsBound) {
  Case c = gates(forward, 1, 1, 1);
  const std::uint64_t minus_100 = 0xC2C80000u;  // -100.0f: exp(100) overflows float32
  c.patches = {{"x", 0, minus_100}};
  const OpProblem p = materialise(forward.def().decl, c);
  const OpOutputs out = forward.make("parity-host")->run(p.call);
  const double y = out.at("y").value_at(0);
  EXPECT_EQ(y, 0.0);
  EXPECT_NE(std::signbit(y), std::signbit(p.values.inputs.at("x")[1])) << "silu(-100) = -0, times b";
  const Verdict v = forward_accuracy(forward.def(), c, *forward.make("parity-host"));
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_EQ(v.metrics.at("may_overflow"), 1.0);
  EXPECT_EQ(v.metrics.at("exempt"), 0.0);
}

// sig and silu are 0 where exp(-a) overflows, so da and db are zeros; the exact ones are about
// 1e-42, within both elements' bounds as the forward's y is (swiglu_backward_op.hpp).
TEST(SwigluKernel, ASaturatedGateGivesZeroGradientsWithinTheirBounds) {
  Case c = gates(backward, 1, 1, 1);
  c.patches = {{"x", 0, 0xC2C80000u}};  // -100.0f
  const OpProblem p = materialise(backward.def().decl, c);
  const OpOutputs out = backward.make("parity-host")->run(p.call);
  EXPECT_EQ(out.at("dx").value_at(0), 0.0);
  EXPECT_EQ(out.at("dx").value_at(1), 0.0);
  const Verdict v = forward_accuracy(backward.def(), c, *backward.make("parity-host"));
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_EQ(v.metrics.at("may_overflow"), 2.0);
  EXPECT_EQ(v.metrics.at("exempt"), 0.0);
}

}  // namespace
}  // namespace parity::ops::swiglu
