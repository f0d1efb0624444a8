// Grouped-query and multi-query heads (H = Hkv*G, query head h reads key/value head h / G): the
// references are multi-head attention on k and v with each head repeated G times, exactly in
// double (o, lse, dq; dk and dv, sums over a group, are checked as gradients in sdpa_unit_test);
// parity's host twins hold every property at grouped and multi-query shapes; and the packed-rows
// probes switch plan where S*G reaches 64, not before.
#include <gtest/gtest.h>

#include <tuple>

#include <string>
#include <utility>
#include <vector>

#include <parity/core/layout.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/sdpa/tests/sdpa_cases.hpp>

namespace parity::ops::sdpa::testing {
namespace {

// The values of a key/value matrix [B, S*Hkv*D] with each head repeated G times, [B, S*Hkv*G*D]:
// head kvh's copy g is head kvh*G + g (written out for both layouts, not through Heads).
std::vector<double> repeated(const std::vector<double>& x, std::int64_t B, std::int64_t Hkv, std::int64_t G,
                             std::int64_t S, std::int64_t D, bool bshd) {
  const std::int64_t H = Hkv * G;
  const auto col = [&](std::int64_t heads, std::int64_t h, std::int64_t s, std::int64_t d) {
    return bshd ? (s * heads + h) * D + d : (h * S + s) * D + d;
  };
  std::vector<double> y(static_cast<std::size_t>(B * S * H * D));
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t s = 0; s < S; ++s)
        for (std::int64_t d = 0; d < D; ++d)
          y[static_cast<std::size_t>(b * S * H * D + col(H, h, s, d))] =
              x[static_cast<std::size_t>(b * S * Hkv * D + col(Hkv, h / G, s, d))];
  return y;
}

TEST(SdpaGrouped, TheReferenceIsMultiHeadAttentionOnRepeatedKeysAndValues) {
  const std::int64_t B = 2, S = 5, D = 3;
  for (const CaseHeads heads : {CaseHeads{2, 3}, CaseHeads{1, 4}})
    for (const bool causal : {false, true})
      for (const bool bshd : {false, true})
        for (const OpUnderTest* f : {&forward_op, &backward_op}) {
          const OpDef& op = f->def();
          const OpValues grouped =
              materialise(op.decl, make_case(f->name.c_str(), B, heads, S, D, causal, bshd, 7)).values;
          OpValues mha = grouped;
          mha.extents["Hkv"] = heads.Hkv * heads.G;
          mha.extents["G"] = 1;
          for (const char* kv : {"k", "v"})
            mha.inputs[kv] = repeated(grouped.inputs.at(kv), B, heads.Hkv, heads.G, S, D, bshd);
          for (const auto* list : {&op.decl.inputs, &op.decl.outputs})
            for (const TensorDecl& t : *list) mha.shapes[t.name] = eval_shape(t, mha.extents);
          const OutputValues a = op.oracle(grouped), b = op.oracle(mha);
          for (const char* out : {"o", "lse", "dq"})
            if (a.contains(out)) {
              ASSERT_FALSE(a.at(out).empty());
              EXPECT_EQ(a.at(out), b.at(out)) << f->name << " " << out << " Hkv " << heads.Hkv << " G " << heads.G;
            }
        }
}

using Check = Verdict (*)(const OpDef&, const Case&, OpSubject&);
const std::pair<const char*, Check> kChecks[] = {{"repeatable", &repeatable},
                                                 {"rows_independent", &rows_independent},
                                                 {"batch_vs_batch", &batch_vs_batch},
                                                 {"layout_invariant", &layout_invariant},
                                                 {"forward_accuracy", &forward_accuracy}};

// Every property but cross_backend_bitwise (it needs a device) on parity's host twins, q and v
// in strided memory (layout_invariant compares them with contiguous ones).
TEST(SdpaGrouped, TheHostTwinsHoldEveryPropertyAtGroupedAndMultiQueryHeads) {
  struct Shape {
    std::int64_t B;
    CaseHeads heads;
    std::int64_t S, D;
    bool causal, bshd;
  };
  for (const Shape& s : {Shape{3, {1, 4}, 17, 8, true, true}, Shape{2, {2, 3}, 33, 5, false, false},
                         Shape{2, {2, 8}, 8, 4, true, false}, Shape{2, {1, 2}, 32, 3, true, true}})
    for (const OpUnderTest* f : {&forward_op, &backward_op})
      for (const std::uint64_t seed : {1u, 2u}) {
        Case c = make_case(f->name.c_str(), s.B, s.heads, s.S, s.D, s.causal, s.bshd, seed);
        c.layouts = {{"q", Layout{.transposed = true, .ld_pad = 2, .offset = 3}},
                     {"v", Layout{.ld_pad = 1, .offset = 1}}};
        const auto kernel = f->make("parity-host");
        const std::string at = f->name + " Hkv " + std::to_string(s.heads.Hkv) + " G " + std::to_string(s.heads.G);
        for (const auto& [name, check] : kChecks) {
          const Verdict v = check(f->def(), c, *kernel);
          EXPECT_TRUE(v.holds()) << at << " " << name << ": " << v.detail;
        }
      }
}

// The outputs of subject `name` of `f` on case c, as matrices.
OpOutputs outputs(const OpUnderTest& f, const std::string& name, const Case& c) {
  const OpDef& op = f.def();
  return run_on_matrices(op.decl, *f.make(name), materialise(op.decl, c).call);
}

// probe-pack-gqa-causal packs a key/value head's S*G query rows where they fill a tile of 64: below
// S*G = 64 (each G that reaches 64 just below it: G 2 at S 31, G 8 at S 7), without grouping, and
// without a mask at S*G >= 64 its outputs are the kernel's bits; at S*G = 64, causal, its mask
// on the packed rows is outside the derived bounds (G 2 at S 32, G 8 at S 8).
TEST(SdpaGrouped, ThePackedRowsProbesSwitchPlanWhereSTimesGReaches64) {
  for (const OpUnderTest* f : {&forward_op, &backward_op}) {
    const std::tuple<CaseHeads, std::int64_t, bool> same[] = {
        {{1, 3}, 21, true}, {{2, 7}, 9, true},   {{2, 1}, 80, true}, {{1, 2}, 31, true},
        {{2, 8}, 7, true},  {{1, 2}, 32, false}, {{2, 8}, 8, false}};
    for (const auto& [heads, S, causal] : same) {
      const Case c = make_case(f->name.c_str(), 2, heads, S, 4, causal, false, 3);
      const OpOutputs kernel = outputs(*f, "parity-host", c), probe = outputs(*f, "probe-pack-gqa-causal", c);
      for (const auto& [name, t] : kernel)
        EXPECT_EQ(t.values(), probe.at(name).values())
            << f->name << " " << name << " G " << heads.G << " S " << S << " causal " << causal;
    }
    const std::pair<CaseHeads, std::int64_t> packed[] = {{{1, 2}, 32}, {{2, 8}, 8}};
    for (const auto& [heads, S] : packed) {
      const Case c = make_case(f->name.c_str(), 2, heads, S, 4, true, false, 3);
      EXPECT_TRUE(forward_accuracy(f->def(), c, *f->make("parity-host")).holds());
      EXPECT_TRUE(forward_accuracy(f->def(), c, *f->make("probe-pack-gqa-causal")).fails())
          << f->name << " G " << heads.G << " S " << S;
    }
  }
}

}  // namespace
}  // namespace parity::ops::sdpa::testing
