// parity's attention op families against their documented contracts: the backward reference is
// the gradient of the forward reference (central differences of the double oracle); a
// [B, S, H, D] case is the [B, H, S, D] case with its heads moved, for the references and the
// kernels alike; and on hand-made cases the kernels are within their derived bounds while the
// probes that change the arithmetic are not.
#include <gtest/gtest.h>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/framework/tests/gradient_check.hpp>
#include <parity/ops/sdpa/tests/sdpa_cases.hpp>

namespace parity::ops::sdpa::testing {
namespace {

// dq, dk and dv are the gradients of sdpa's o (testing::gradient_mismatches), causal or not, in
// either head layout, with multi-head, grouped-query (dk and dv summed over 2 or 3 query heads)
// and multi-query heads.
TEST(SdpaReference, TheBackwardIsTheGradientOfTheForward) {
  for (const CaseHeads heads : {CaseHeads{2, 1}, CaseHeads{2, 2}, CaseHeads{1, 3}})
    for (const bool causal : {false, true})
      for (const bool bshd : {false, true})
        for (const std::string& fault : ops::testing::gradient_mismatches(
                 forward_op.def(), backward_op.def(), make_case("sdpa_backward", 2, heads, 5, 3, causal, bshd, 11),
                 {{"o", "do"}}, {"q", "k", "v"}))
          ADD_FAILURE() << "Hkv " << heads.Hkv << " G " << heads.G << ": " << fault;
}

// A [B, H, S, D] operand's values rearranged as [B, S, H, D] (written out, not through Heads);
// H is the operand's own head count (a key/value operand's Hkv).
std::vector<double> to_bshd(const std::vector<double>& x, std::int64_t B, std::int64_t S, std::int64_t D) {
  const std::int64_t H = static_cast<std::int64_t>(x.size()) / (B * S * D);
  std::vector<double> y(x.size());
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t s = 0; s < S; ++s)
        for (std::int64_t d = 0; d < D; ++d)
          y[static_cast<std::size_t>(((b * S + s) * H + h) * D + d)] =
              x[static_cast<std::size_t>(((b * H + h) * S + s) * D + d)];
  return y;
}

TEST(SdpaLayouts, BshdIsBhsdWithTheHeadsMoved) {
  const std::int64_t B = 2, S = 4, D = 5;
  for (const OpUnderTest* f : {&forward_op, &backward_op}) {
    const OpDef& op = f->def();
    const OpProblem bhsd = materialise(op.decl, make_case(f->name.c_str(), B, {3, 2}, S, D, true, false, 3));
    OpProblem bshd = bhsd;
    bshd.values.params["layout"] = bshd.call.params["layout"] = 1;
    for (auto& [name, x] : bshd.values.inputs) {
      x = to_bshd(x, B, S, D);
      for (std::size_t i = 0; i < x.size(); ++i)
        bshd.call.inputs.at(name).set_value(static_cast<std::int64_t>(i), x[i]);
    }
    const OutputValues a = op.oracle(bhsd.values), b = op.oracle(bshd.values);
    const auto kernel = f->make("parity-host");
    const OpOutputs ka = run_on_matrices(op.decl, *kernel, bhsd.call),
                    kb = run_on_matrices(op.decl, *kernel, bshd.call);
    for (const auto& t : op.decl.outputs) {
      if (t.name == "lse") {
        EXPECT_EQ(a.at(t.name), b.at(t.name));
        EXPECT_EQ(ka.at(t.name).values(), kb.at(t.name).values());
        continue;
      }
      EXPECT_EQ(to_bshd(a.at(t.name), B, S, D), b.at(t.name)) << f->name << " " << t.name;
      EXPECT_EQ(to_bshd(ka.at(t.name).values(), B, S, D), kb.at(t.name).values()) << f->name << " " << t.name;
    }
  }
}

TEST(SdpaKernel, WithinItsBoundWhereTheProbesOfItsArithmeticAreNot) {
  for (const std::uint64_t seed : {1u, 2u}) {
    const Case small = make_case("sdpa", 2, {2, 1}, 9, 16, true, true, seed);
    EXPECT_TRUE(forward_accuracy(forward_op.def(), small, *forward_op.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(forward_op.def(), small, *forward_op.make("probe-causal-off-by-one")).fails());
    EXPECT_TRUE(forward_accuracy(forward_op.def(), small, *forward_op.make("probe-scale-after-softmax")).fails());
    const Case large_logits = make_case("sdpa", 2, {2, 1}, 9, 16, false, false, seed, 10.0);
    EXPECT_TRUE(forward_accuracy(forward_op.def(), large_logits, *forward_op.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(forward_op.def(), large_logits, *forward_op.make("probe-no-max")).fails());
    const Case back = make_case("sdpa_backward", 2, {2, 1}, 9, 16, true, false, seed);
    EXPECT_TRUE(forward_accuracy(backward_op.def(), back, *backward_op.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(backward_op.def(), back, *backward_op.make("probe-no-rowsum")).fails());
    EXPECT_TRUE(forward_accuracy(backward_op.def(), back, *backward_op.make("probe-causal-off-by-one")).fails());
  }
}

// Found by sdpa_backward's forward_accuracy: with logits of scale 100 a probability underflows
// to 0 in float32 (not in double), and times the Inf in v it is NaN where the double oracle has
// Inf; the kernel is right and the class of those elements unknown (bounded.hpp).
TEST(SdpaKernel, AnInfValueWithAnUnderflowedProbabilityIsNoViolation) {
  for (const OpUnderTest* f : {&forward_op, &backward_op}) {
    Case c = make_case(f->name.c_str(), 1, {1, 1}, 2, 25, false, false, 0, 10.0);
    c.params["dtype.act"] = 16;
    c.patches = {{"v", 0, 0x7f80, DType::bf16}};
    EXPECT_TRUE(forward_accuracy(f->def(), c, *f->make("parity-host")).holds()) << f->name;
  }
}

// The split-keys plans change the bits of a row with the batch's B*H: caught as batch variance.
TEST(SdpaKernel, TheSplitKeysProbesDependOnTheBatch) {
  const Case c = make_case("sdpa", 4, {2, 1}, 128, 4, false, false, 5);
  EXPECT_TRUE(rows_independent(forward_op.def(), c, *forward_op.make("parity-host")).holds());
  EXPECT_TRUE(rows_independent(forward_op.def(), c, *forward_op.make("probe-split-keys")).fails());
  const Case b = make_case("sdpa_backward", 4, {2, 1}, 128, 4, false, false, 5);
  EXPECT_TRUE(rows_independent(backward_op.def(), b, *backward_op.make("parity-host")).holds());
  EXPECT_TRUE(rows_independent(backward_op.def(), b, *backward_op.make("probe-split-keys")).fails());
}

}  // namespace
}  // namespace parity::ops::sdpa::testing
