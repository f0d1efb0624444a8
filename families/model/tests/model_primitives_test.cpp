// The model's primitives that are op kernels (primitives.hpp: parity's host kernels of the
// ops linear, sdpa, sdpa_backward and swiglu), as the model calls them:
//   - linear within its gamma bound for float32 with a bias, for the text projection's bf16 x
//     and W beside a float32 bias (outside the op's one-dtype declaration, so only here), and dx
//     for a bf16 W; K = 300 puts more than one term in a lane of the kernel's order;
//   - the SwiGLU feed-forward (feed_forward.hpp) within the derived bound of
//     feed_forward_reference.hpp, forward and dh;
//   - attention wired to the kernels as sdpa_kernels.hpp says: the same bits as the kernels
//     called directly on the heads in the other layout, [B, S, H, D] (parity's kernels are
//     bitwise layout invariant: `parity check sdpa`), so a wrong extent, layout, scale, causal
//     flag or swapped gradient shows;
//   - rows of a batched call equal the rows alone, and 1, 2 and 3 threads give the same bits
//     (the sdpa host twins spread heads over threads).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/families/model/routines/feed_forward.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>
#include <parity/families/model/tests/feed_forward_reference.hpp>
#include <parity/families/model/tests/primitive_test_helpers.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::model {
namespace {

using std::int64_t;
using test::expect_within;
using test::gamma;
using test::host;

void expect_bitwise(const Tensor& a, const Tensor& b, const std::string& what) {
  const BitwiseDiff d = compare_bitwise(a, b);
  EXPECT_TRUE(d.equal()) << what << ": " << d.describe(b.shape());
}

// ---- linear ---------------------------------------------------------------------------

// y = x W^T (+ b): each product rounds once, the K products and the bias are summed in some
// order (the kernel's lanes), so every term sees at most K + 1 roundings: gamma_{K+1} (sum_k |x w|
// + |b|).
void check_linear(DType dtype, bool bias) {
  const int64_t M = 7, N = 9, K = 300;
  const Tensor x = normal_tensor_nd(dtype, {M, K}, 11, 0, 1.0), W = normal_tensor_nd(dtype, {N, K}, 11, 1, 0.3);
  const Tensor b = normal_tensor_nd(DType::f32, {N}, 11, 2, 1.0);
  const Tensor y = host().linear_forward(x, W, bias ? &b : nullptr);
  ASSERT_EQ(y.dtype(), DType::f32);
  const std::vector<double> xv = x.values(), Wv = W.values(), bv = b.values();
  std::vector<double> ref(M * N), bound(M * N);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = bias ? bv[n] : 0.0, mag = bias ? std::fabs(bv[n]) : 0.0;
      for (int64_t k = 0; k < K; ++k) {
        s += xv[m * K + k] * Wv[n * K + k];
        mag += std::fabs(xv[m * K + k] * Wv[n * K + k]);
      }
      ref[m * N + n] = s;
      bound[m * N + n] = gamma(K + 1) * mag;
    }
  expect_within(y, ref, bound, "linear_forward");
}

TEST(ModelPrimitivesLinear, Float32WithABiasWithinGammaBound) { check_linear(DType::f32, true); }
TEST(ModelPrimitivesLinear, TheTextProjectionsBf16BesideAFloat32BiasWithinGammaBound) {
  check_linear(DType::bf16, true);
}

// dx = dy W (the kernel on W^T): gamma_N sum_n |dy w|.
TEST(ModelPrimitivesLinear, DxForABf16WeightWithinGammaBound) {
  const int64_t M = 6, N = 301, K = 10;
  const Tensor dy = normal_tensor_nd(DType::f32, {M, N}, 12, 0, 1.0),
               W = normal_tensor_nd(DType::bf16, {N, K}, 12, 1, 0.3);
  const Tensor dx = host().linear_backward_input(dy, W);
  const std::vector<double> g = dy.values(), Wv = W.values();
  std::vector<double> ref(M * K, 0.0), bound(M * K, 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) {
        ref[m * K + k] += g[m * N + n] * Wv[n * K + k];
        bound[m * K + k] += gamma(N) * std::fabs(g[m * N + n] * Wv[n * K + k]);
      }
  expect_within(dx, ref, bound, "linear_backward_input");
}

// ---- SwiGLU feed-forward --------------------------------------------------------------

TEST(ModelPrimitivesFeedForward, ForwardAndDhWithinDerivedBound) {
  const test::SwigluProblem p = test::swiglu_problem(5, 16, 300, 18);  // F = 300: dh reduces 600 terms
  const test::SwigluReference r = test::swiglu_reference(p);
  expect_within(swiglu_forward(host(), p.h, p.W1, p.W3, p.W2), r.out, r.out_bound, "swiglu_forward");
  expect_within(swiglu_backward_input(host(), p.h, p.W1, p.W3, p.W2, p.d_out), r.dh, r.dh_bound,
                "swiglu_backward_input");
}

// ---- attention ------------------------------------------------------------------------

struct Heads {
  Tensor q, k, v, d_out;
  float scale;
};

// q, k, v, d_out [B, H, T, Dh] of order 1; scale 1/sqrt(Dh).
Heads heads(int64_t B, int64_t H, int64_t T, int64_t Dh, std::uint64_t seed) {
  const std::vector<int64_t> s{B, H, T, Dh};
  return {normal_tensor_nd(DType::f32, s, seed, 0, 1.0), normal_tensor_nd(DType::f32, s, seed, 1, 1.0),
          normal_tensor_nd(DType::f32, s, seed, 2, 1.0), normal_tensor_nd(DType::f32, s, seed, 3, 1.0),
          static_cast<float>(1.0 / std::sqrt(static_cast<double>(Dh)))};
}

// [B, H, T, Dh] as the op's matrix in layout 1: [B, T*H*Dh].
Tensor bshd(const Tensor& t) { return reshaped(swap_dims_1_2(t), {t.dim(0), t.numel() / t.dim(0)}); }
// An output of layout 1 back to [B, H, T, Dh].
Tensor from_bshd(const Tensor& t, const Tensor& like) {
  return swap_dims_1_2(reshaped(t, {like.dim(0), like.dim(2), like.dim(1), like.dim(3)}));
}

// Parity's kernel of `op` run on a call of the op's matrices (op_view.hpp), its outputs as matrices.
ops::OpOutputs on_matrices(const char* op, const ops::OpCall& call) {
  const ops::OpFamily& f = ops::find_op_family(op);
  return ops::run_on_matrices(f.def().decl, *f.runnable("parity-host").make(), call);
}

TEST(ModelPrimitivesAttention, TheKernelsCalledDirectlyInTheOtherLayoutGiveTheSameBits) {
  const Heads p = heads(2, 3, 7, 8, 16);
  ops::OpCall call;
  call.extents = {{"B", 2}, {"Hkv", 3}, {"G", 1}, {"S", 7}, {"D", 8}};
  call.inputs = {{"q", bshd(p.q)}, {"k", bshd(p.k)}, {"v", bshd(p.v)}};
  call.params = {{"scale", p.scale}, {"causal", 0.0}, {"layout", 1.0}};
  call.output_dtypes = {{"o", DType::f32}, {"lse", DType::f32}};
  const ops::OpOutputs o = on_matrices("sdpa", call);
  expect_bitwise(host().sdpa_forward(p.q, p.k, p.v, p.scale), from_bshd(o.at("o"), p.q), "o");
  call.inputs.emplace("do", bshd(p.d_out));
  call.output_dtypes = {{"dq", DType::f32}, {"dk", DType::f32}, {"dv", DType::f32}};
  const ops::OpOutputs g = on_matrices("sdpa_backward", call);
  const SdpaGrads got = host().sdpa_backward(p.q, p.k, p.v, p.scale, p.d_out);
  expect_bitwise(got.dq, from_bshd(g.at("dq"), p.q), "dq");
  expect_bitwise(got.dk, from_bshd(g.at("dk"), p.k), "dk");
  expect_bitwise(got.dv, from_bshd(g.at("dv"), p.v), "dv");
}

// ---- batch invariance, repeatability, threads ------------------------------------------

// All of the primitives' outputs on one batch: linear forward and dx, the feed-forward and its
// dh, attention's o, dq, dk, dv.
std::vector<Tensor> outputs(const Tensor& x, const Tensor& W, const Tensor& b, const Tensor& dy,
                            const test::SwigluProblem& f, const Heads& a) {
  const SdpaGrads g = host().sdpa_backward(a.q, a.k, a.v, a.scale, a.d_out);
  return {host().linear_forward(x, W, &b),
          host().linear_backward_input(dy, W),
          swiglu_forward(host(), f.h, f.W1, f.W3, f.W2),
          swiglu_backward_input(host(), f.h, f.W1, f.W3, f.W2, f.d_out),
          host().sdpa_forward(a.q, a.k, a.v, a.scale),
          g.dq,
          g.dk,
          g.dv};
}

TEST(ModelPrimitivesInvariance, RowsOfABatchEqualRowsComputedAlone) {
  const int64_t M = 5;
  const Tensor x = normal_tensor_nd(DType::f32, {M, 300}, 19, 0, 1.0),
               W = normal_tensor_nd(DType::f32, {24, 300}, 19, 1, 0.1);
  const Tensor b = normal_tensor_nd(DType::f32, {24}, 19, 2, 1.0),
               dy = normal_tensor_nd(DType::f32, {M, 24}, 19, 3, 1.0);
  const test::SwigluProblem f = test::swiglu_problem(M, 16, 24, 19);
  const Heads a = heads(M, 2, 6, 8, 20);  // a batch element of attention is a row of the batch
  const std::vector<Tensor> all = outputs(x, W, b, dy, f, a);
  for (std::size_t i = 0; i < all.size(); ++i)  // as [batch, rest]: rows are batch elements
    ASSERT_TRUE(other_row_differs(reshaped(all[i], {M, all[i].numel() / M}), 0)) << "output " << i << ": degenerate";
  for (int64_t m = 0; m < M; ++m) {
    const auto one = [m](const Tensor& t) { return t.rows(m, m + 1); };
    const test::SwigluProblem fm{one(f.h), f.W1, f.W3, f.W2, one(f.d_out)};
    const std::vector<Tensor> alone =
        outputs(one(x), W, b, one(dy), fm, Heads{one(a.q), one(a.k), one(a.v), one(a.d_out), a.scale});
    for (std::size_t i = 0; i < all.size(); ++i)
      expect_bitwise(alone[i], one(all[i]), "output " + std::to_string(i) + " row " + std::to_string(m));
  }
}

TEST(ModelPrimitivesInvariance, RepeatableAndIndependentOfTheThreadCount) {
  const Tensor x = normal_tensor_nd(DType::f32, {29, 300}, 22, 0, 1.0),
               W = normal_tensor_nd(DType::f32, {24, 300}, 22, 1, 0.1);
  const Tensor b = normal_tensor_nd(DType::f32, {24}, 22, 2, 1.0),
               dy = normal_tensor_nd(DType::f32, {29, 24}, 22, 3, 1.0);
  const test::SwigluProblem f = test::swiglu_problem(29, 16, 24, 23);
  const Heads a = heads(2, 3, 37, 16, 21);
  const auto run = [&](const char* threads) {
    setenv("PARITY_THREADS", threads, 1);
    return outputs(x, W, b, dy, f, a);
  };
  const std::vector<Tensor> first = run("1");
  for (const char* threads : {"1", "2", "3"}) {
    const std::vector<Tensor> again = run(threads);
    for (std::size_t i = 0; i < first.size(); ++i)
      expect_bitwise(again[i], first[i], std::string("output ") + std::to_string(i) + " with " + threads + " threads");
  }
  unsetenv("PARITY_THREADS");
}

}  // namespace
}  // namespace parity::model
