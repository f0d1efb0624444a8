// parity's SwiGLU kernel against its documented contract (swiglu_arith.cuh): on hand-made cases,
// the kernel within its derived bound where the fast-exp, bf16-intermediate and swapped-halves
// probes are not; the dropped-tail probe wrong exactly where F is odd; a saturated gate
// (exp(-a) overflowing float32) giving silu's limit -0, which the bound exempts and counts.
#include <gtest/gtest.h>

#include <cmath>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/swiglu/swiglu_family.hpp>

namespace parity::ops::swiglu {
namespace {

const OpDef& def() { return dynamic_cast<const OpFamily&>(family()).def(); }

Case gates(std::int64_t T, std::int64_t F, std::uint64_t seed, double scale = 1.0) {
  Case c;
  c.family = "swiglu";
  c.seed = seed;
  c.dims = {{"T", T}, {"F", F}};
  c.params = {{"dtype.act", 32}, {"scale.x", scale}};
  return c;
}

std::unique_ptr<OpSubject> make(const std::string& name) {
  family().subjects();  // registers parity's own
  for (const auto& s : op_subjects("swiglu"))
    if (s.name == name) return s.make();
  throw std::logic_error("no subject " + name);
}

TEST(SwigluKernel, WithinItsBoundWhereTheArithmeticProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = gates(3, 200, seed);
    EXPECT_TRUE(forward_accuracy(def(), c, *make("rlkernels-host")).holds());
    for (const char* probe : {"probe-fast-exp", "probe-bf16-intermediate", "probe-swapped-halves"})
      EXPECT_TRUE(forward_accuracy(def(), c, *make(probe)).fails()) << probe << " seed " << seed;
  }
}

TEST(SwigluKernel, TheDroppedTailIsWrongExactlyForOddF) {
  for (const std::int64_t F : {1, 2, 7, 8, 255, 256}) {
    const Verdict v = forward_accuracy(def(), gates(2, F, 5), *make("probe-dropped-tail"));
    EXPECT_EQ(v.fails(), F % 2 == 1) << "F = " << F << ": " << v.detail;
  }
}

TEST(SwigluKernel, ASaturatedGateGivesMinusZeroAndIsExempt) {
  Case c = gates(1, 1, 1);
  const std::uint64_t minus_100 = 0xC2C80000u;  // -100.0f: exp(100) overflows float32
  c.patches = {{"x", 0, minus_100}};
  const OpProblem p = materialise(def().decl, c);
  const OpOutputs out = make("rlkernels-host")->run(p.call);
  const double y = out.at("y").value_at(0);
  EXPECT_EQ(y, 0.0);
  EXPECT_NE(std::signbit(y), std::signbit(p.values.inputs.at("x")[1])) << "silu(-100) = -0, times b";
  const Verdict v = forward_accuracy(def(), c, *make("rlkernels-host"));
  EXPECT_EQ(v.outcome, Outcome::discarded) << v.detail;  // the only element is exempt
}

}  // namespace
}  // namespace parity::ops::swiglu
