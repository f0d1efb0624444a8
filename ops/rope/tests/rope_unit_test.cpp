// parity's RoPE kernel against its documented contract (rope_op.hpp, rope_kernel.cuh): a quarter
// turn (cos 0, sin 1) maps each pair (x1, x2) to (-x2, x1) exactly, with the pairs of the declared
// layout; on hand-made cases the kernel within its derived bound where the sin-sign and bf16-table
// probes are not; the NeoX-only probe wrong exactly for interleaved pairs; the last Q dims of each
// head passed through unchanged, which the heads-packed probe breaks.
#include <gtest/gtest.h>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::rope {
namespace {

const testing::OpUnderTest op{"rope"};

Case heads(std::int64_t T, std::int64_t H, std::int64_t P, bool interleaved, std::uint64_t seed, std::int64_t Q = 0) {
  return testing::case_of(
      "rope", seed, {{"T", T}, {"H", H}, {"P", P}, {"Q", Q}},
      {{"interleaved", interleaved ? 1.0 : 0.0}, {"dtype.act", 32}, {"dtype.table", 32}, {"scale.x", 1.0}});
}

TEST(RopeKernel, AQuarterTurnMapsEachPairOfTheLayoutToMinusX2X1AndPassesTheRestThrough) {
  const std::int64_t T = 2, H = 3, P = 4, Q = 3, D = 2 * P + Q, W = H * D;
  for (const bool interleaved : {false, true}) {
    OpProblem p = materialise(op.def().decl, heads(T, H, P, interleaved, 9, Q));
    Tensor one = Tensor::zeros(DType::f32, {T, P});
    for (std::int64_t i = 0; i < T * P; ++i) one.set_value(i, 1.0);
    p.call.inputs["cos"] = Tensor::zeros(DType::f32, {T, P});
    p.call.inputs["sin"] = one;
    const OpOutputs out = run_on_matrices(op.def().decl, *op.make("parity-host"), p.call);
    const std::vector<double> x = p.call.inputs.at("x").values(), y = out.at("y").values();
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t j = 0; j < P; ++j) {
          const std::int64_t base = t * W + h * D;
          const std::int64_t i1 = base + (interleaved ? 2 * j : j), i2 = base + (interleaved ? 2 * j + 1 : j + P);
          EXPECT_EQ(y[i1], -x[i2]) << "interleaved " << interleaved << " pair " << j;
          EXPECT_EQ(y[i2], x[i1]) << "interleaved " << interleaved << " pair " << j;
          for (std::int64_t q = 2 * P; q < D; ++q) EXPECT_EQ(y[base + q], x[base + q]) << "pass-through dim " << q;
        }
  }
}

TEST(RopeKernel, WithinItsBoundWhereTheSignAndTableProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u})
    for (const bool interleaved : {false, true}) {
      const Case c = heads(3, 2, 32, interleaved, seed);
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds());
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-sin-sign-flipped")).fails()) << seed;
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-bf16-tables")).fails()) << seed;
    }
}

TEST(RopeKernel, TheNeoxOnlyProbeIsWrongExactlyForInterleavedPairs) {
  for (const bool interleaved : {false, true}) {
    const Verdict v = forward_accuracy(op.def(), heads(2, 2, 8, interleaved, 4), *op.make("probe-neox-only"));
    EXPECT_EQ(v.fails(), interleaved) << v.detail;
  }
}

TEST(RopeKernel, TheHeadsPackedProbeIsWrongExactlyForAPartialRotationOfSeveralHeads) {
  for (const auto& [H, Q] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 0}, {3, 0}, {1, 4}, {3, 4}}) {
    const Case c = heads(2, H, 8, false, 5, Q);
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds()) << "H " << H << " Q " << Q;
    EXPECT_EQ(forward_accuracy(op.def(), c, *op.make("probe-heads-packed")).fails(), H > 1 && Q > 0)
        << "H " << H << " Q " << Q;
  }
}

}  // namespace
}  // namespace parity::ops::rope
