// lora_backward against the forward it differentiates: its subjects are parity's kernel,
// LibTorch's autograd and the probes whose change the backward can show (the forward's split-K and
// plan-switch probes give the host twin's gradients); parity-host returns the host twin's backward
// bits; the reference in double is the gradient of lora_forward's (central differences of
// sum(y * dy)); parity's host twin holds its derived bound on hand-made cases while the scale,
// rank-path, bf16-accumulation and truncation probes do not; generated cases stay within the work
// cap.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <tuple>
#include <vector>

#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/gradient_check.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/lora_backward/lora_backward_op.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/ops/lora_forward/lora_probes.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::lora_backward {
namespace {

using lora_forward::LoraGradients;
using lora_forward::LoraHost;

const testing::OpUnderTest op{"lora_backward"}, forward{"lora_forward"};

Case make_case(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r, double scale, std::uint64_t seed) {
  return testing::case_of(
      "lora_backward", seed, {{"T", T}, {"N", N}, {"K", K}, {"r", r}},
      {{"scale", scale}, {"dtype.act", dtype_code(DType::bf16)}, {"dtype.adapter", dtype_code(DType::f32)}});
}

TEST(LoraBackward, ItsSubjectsAreParitysKernelLibTorchsAndTheProbesTheGradientsShow) {
  std::vector<std::string> names;  // parity's, registered after the tests' own subjects
  for (const auto& s : op.family().infos())
    if (s.name == "parity-host" || !names.empty()) names.push_back(s.name);
  const std::vector<std::string> want = {"parity-host",
                                         "parity-cuda",
                                         "torch-cpu",
                                         "torch-cuda",
                                         "probe-scale-dropped",
                                         "probe-rank-path-drops-b-column",
                                         "probe-bf16-accumulation",
                                         "probe-truncating-bf16"};
  EXPECT_EQ(names, want);
}

// `p`'s operands as the kernel reads them.
lora_forward::LoraOperands operands(const OpProblem& p) { return lora_forward::operands_of(p.call); }

// Every element of a's dx, dA and dB has b's bits.
void expect_same_bits(const LoraGradients& a, const LoraGradients& b, const std::string& what) {
  for (const auto& [name, x, y] : {std::tuple{"dx", &a.dx, &b.dx}, {"dA", &a.dA, &b.dA}, {"dB", &a.dB, &b.dB}}) {
    ASSERT_EQ(x->shape(), y->shape()) << what << " " << name;
    for (std::int64_t i = 0; i < x->numel(); ++i)
      ASSERT_EQ(x->bits_at(i), y->bits_at(i)) << what << " " << name << "[" << i << "]";
  }
}

TEST(LoraBackward, ParityHostReturnsTheHostTwinsBackward) {
  const OpProblem p = materialise(op.def().decl, make_case(5, 7, 40, 3, 2.0, 11));
  OpOutputs out = op.make("parity-host")->run(p.call);
  const LoraGradients got{.dx = std::move(out.at("dx")), .dA = std::move(out.at("dA")), .dB = std::move(out.at("dB"))};
  expect_same_bits(got, LoraHost<lora_forward::StandardArithmetic>().backward(operands(p), p.call.input("dy")),
                   "the op's run");
}

// The forward's probes left out change what the backward cannot show: on batches past each one's
// row and depth thresholds (T 64 and 128, K split), their dx, dA and dB are the host twin's bits.
TEST(LoraBackward, TheForwardsPlanProbesGiveTheHostTwinsGradients) {
  namespace probes = lora_forward::probes;
  for (const auto& [T, K] : {std::pair<std::int64_t, std::int64_t>{1, 40}, {3, 40}, {130, 96}}) {
    const OpProblem p = materialise(op.def().decl, make_case(T, 9, K, 4, 2.0, 7));
    const Tensor& dy = p.call.input("dy");
    const LoraGradients host = LoraHost<lora_forward::StandardArithmetic>().backward(operands(p), dy);
    const std::string at = " at T=" + std::to_string(T) + " K=" + std::to_string(K);
    expect_same_bits(LoraHost<probes::SplitKByRows>().backward(operands(p), dy), host, "split-k-by-rows" + at);
    expect_same_bits(LoraHost<probes::SplitKByDepth>().backward(operands(p), dy), host, "split-k-by-depth" + at);
    expect_same_bits(LoraHost<probes::SplitKFromRows>().backward(operands(p), dy), host, "split-k-from-128" + at);
    expect_same_bits(LoraHost<probes::PlanSwitchAtRows>().backward(operands(p), dy), host, "plan-switch" + at);
  }
}

// dx, dA and dB are the gradients of lora_forward's y (testing::gradient_mismatches; exact up to
// rounding, y being bilinear in each), and W, frozen, has none.
TEST(LoraBackwardReference, TheBackwardIsTheGradientOfTheForward) {
  for (const double scale : {1.0, 0.5, 16.0}) {
    const Case c = make_case(3, 4, 9, 2, scale, 5);
    EXPECT_FALSE(op.def().oracle(materialise(op.def().decl, c).values).contains("dW"));
    for (const std::string& fault :
         testing::gradient_mismatches(forward.def(), op.def(), c, {{"y", "dy"}}, {"x", "A", "B"}))
      ADD_FAILURE() << fault;
  }
}

TEST(LoraBackward, WithinItsBoundWhereTheProbesOfItsArithmeticAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = make_case(4, 6, 300, 40, 2.0, seed);
    const Verdict v = forward_accuracy(op.def(), c, *op.make("parity-host"));
    EXPECT_TRUE(v.holds()) << v.detail;
    for (const char* probe :
         {"probe-scale-dropped", "probe-rank-path-drops-b-column", "probe-bf16-accumulation", "probe-truncating-bf16"})
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make(probe)).fails()) << probe << " seed " << seed;
  }
}

// Where the scale sits decides the bound at the edges of the range: parity's kernel applies s = 16
// after its sums, so a product of dy and h that underflows has its underflow error multiplied by
// s. A dy patched to bf16's smallest subnormal or normal, one row, must stay within the bound
// (the reference covers every placement of s, not only s on dy).
// A -Inf in row 0 of dy (the LoRA fuzzer's finding: NaN bounds beside it from per-tensor maxima):
// dx's row 1 is checked against a finite bound and the verdict holds.
TEST(LoraBackward, ANonFiniteRowOfDyLeavesTheOtherRowsBoundsFinite) {
  Case c = make_case(2, 2, 1, 1, 1.0, 5);
  c.patches = {{"dy", 0, 0xff80, DType::bf16}};
  const Verdict v = forward_accuracy(op.def(), c, *op.make("parity-host"));
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_TRUE(std::isfinite(v.metrics.at("dx_bound_utilisation"))) << v.detail;
}

TEST(LoraBackward, AScaleAppliedAfterAnUnderflowingSumIsWithinItsBound) {
  for (const std::uint16_t bits : {std::uint16_t{0x0001}, std::uint16_t{0x0080}})
    for (const std::int64_t K : {1, 8, 32})
      for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
        Case c = make_case(1, 2, K, 2, 16.0, seed);
        c.patches.push_back({"dy", 0, bits, DType::bf16});
        const Verdict v = forward_accuracy(op.def(), c, *op.make("parity-host"));
        EXPECT_TRUE(v.holds()) << c.summary() << ": " << v.detail;
      }
}

// A caller that reads only dA and dB (zero_adapter_gradients) gets their values and bounds bit
// for bit as a caller of every output does, and no dx.
TEST(LoraBackwardReference, AnUnwantedDxIsNotEvaluatedAndChangesNoOtherOutput) {
  const OpProblem p = materialise(op.def().decl, make_case(6, 9, 33, 4, 2.0, 3));
  const Arithmetic arithmetic{};  // Eval holds a reference to it
  Eval<Bounded> all(p.values, arithmetic);
  Eval<Bounded> some(p.values, arithmetic, {"dA", "dB"});
  LoraBackward::reference(all);
  LoraBackward::reference(some);
  EXPECT_TRUE(all.wants("dx"));
  EXPECT_FALSE(some.wants("dx"));
  for (const char* name : {"dA", "dB"}) {
    const auto &a = all.outputs().at(name), &b = some.outputs().at(name);
    ASSERT_EQ(a.size(), b.size()) << name;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a[i].value()), std::bit_cast<std::uint64_t>(b[i].value())) << name << i;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a[i].err()), std::bit_cast<std::uint64_t>(b[i].err())) << name << i;
    }
  }
  const auto& dx = all.outputs().at("dx");
  EXPECT_TRUE(std::any_of(dx.begin(), dx.end(), [](const Bounded& v) { return v.value() != 0.0; }));
  const auto& unwanted = some.outputs().at("dx");
  EXPECT_TRUE(std::all_of(unwanted.begin(), unwanted.end(), [](const Bounded& v) { return v.value() == 0.0; }));
}

RC_GTEST_PROP(LoraBackward, GeneratedCasesStayWithinTheWorkCap, ()) {
  const Case c = *op_case(op.def().decl);
  check_contract(op.def().decl, c);
  const std::int64_t T = c.dim("T") + 1, N = c.dim("N"), K = c.dim("K"), r = c.dim("r");
  RC_ASSERT(3 * (T * K * N + 3 * T * K * r + 2 * T * N * r) <= reach_work_of(op.def().decl));  // reach cases' cap
  RC_ASSERT(c.params.at("dtype.adapter") == dtype_code(DType::f32));
}

}  // namespace
}  // namespace parity::ops::lora_backward
