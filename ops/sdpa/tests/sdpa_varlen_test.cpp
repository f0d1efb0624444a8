// sdpa_varlen against sdpa: each packed sequence b is sdpa on that sequence alone (B = 1, S = L_b,
// layout 1), for the double oracle exactly and for the host twins bit for bit, with +0 at every
// padding position; on hand-made cases the kernel is within its derived bounds, the probe that
// reads keys past a sequence's length is not, and the split chosen from the packed total changes
// a row's bits exactly where the total reaches 256 tokens; straddles and patches lie on real
// positions; messages count real elements and name the sequence; layout_invariant sees a kernel that ignores its
// operands' strides.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/sdpa/tests/sdpa_cases.hpp>

namespace parity::ops::sdpa::testing {
namespace {

const OpUnderTest varlen_op{"sdpa_varlen"};

// A float32 sdpa_varlen case of the rows' `lengths`, S their maximum, at scale 0.125.
Case varlen_case(const std::vector<std::int64_t>& lengths, CaseHeads heads, std::int64_t D, bool causal,
                 std::uint64_t seed) {
  const std::int64_t S = *std::max_element(lengths.begin(), lengths.end());
  Case c = case_of(
      "sdpa_varlen", seed,
      {{"B", static_cast<std::int64_t>(lengths.size())}, {"Hkv", heads.Hkv}, {"G", heads.G}, {"S", S}, {"D", D}},
      {{"causal", causal ? 1.0 : 0.0}, {"scale", 0.125}, {"dtype.act", 32}, {"scale.q", 1.0}, {"scale.k", 1.0}});
  for (std::size_t b = 0; b < lengths.size(); ++b) c.params["S." + std::to_string(b)] = static_cast<double>(lengths[b]);
  return c;
}

// The first n columns of row b of a matrix, as a [1, n] float32 matrix.
Tensor row_prefix(const Tensor& m, std::int64_t b, std::int64_t n) {
  Tensor out = Tensor::zeros(DType::f32, {1, n});
  for (std::int64_t i = 0; i < n; ++i) out.set_bits(i, m.rows(b, b + 1).bits_at(i));
  return out;
}

TEST(SdpaVarlen, EachSequenceIsSdpaOnThatSequenceAlone) {
  const OpDef& varlen = varlen_op.def();
  const OpDef& sdpa = forward_op.def();
  const std::vector<std::int64_t> lengths = {3, 1, 5};
  constexpr std::int64_t S = 5, D = 3;
  for (const CaseHeads heads : {CaseHeads{1, 1}, CaseHeads{2, 2}, CaseHeads{1, 3}})
    for (const bool causal : {false, true}) {
      const std::int64_t H = heads.Hkv * heads.G;
      const OpProblem p = materialise(varlen.decl, varlen_case(lengths, heads, D, causal, 5));
      const OpOutputs kernel = run_on_matrices(varlen.decl, *varlen_op.make("parity-host"), p.call);
      const OutputValues oracle = varlen.oracle(p.values);
      for (std::int64_t b = 0; b < 3; ++b) {
        const std::int64_t L = lengths[static_cast<std::size_t>(b)];
        OpCall one;  // sequence b as an sdpa call of one batch element, layout 1 ([B, S, H, D])
        one.extents = {{"B", 1}, {"Hkv", heads.Hkv}, {"G", heads.G}, {"S", L}, {"D", D}};
        one.params = {{"causal", causal ? 1.0 : 0.0}, {"layout", 1.0}, {"scale", 0.125}};
        one.output_dtypes = {{"o", DType::f32}, {"lse", DType::f32}};
        OpValues values{.extents = one.extents, .params = one.params};
        for (const auto& [name, heads_of] : {std::pair{"q", H}, std::pair{"k", heads.Hkv}, std::pair{"v", heads.Hkv}}) {
          one.inputs[name] = row_prefix(p.call.input(name), b, L * heads_of * D);
          values.inputs[name] = one.inputs[name].values();
        }
        for (const auto* list : {&sdpa.decl.inputs, &sdpa.decl.outputs})
          for (const auto& t : *list) values.shapes[t.name] = eval_shape(t, one.extents);
        const OpOutputs alone = run_on_matrices(sdpa.decl, *forward_op.make("parity-host"), one);
        const OutputValues alone_oracle = sdpa.oracle(values);
        const std::string at = "Hkv " + std::to_string(heads.Hkv) + " G " + std::to_string(heads.G) + " causal " +
                               std::to_string(causal) + " b " + std::to_string(b);
        for (std::int64_t i = 0; i < S * H * D; ++i) {
          const std::int64_t row = b * S * H * D + i;
          const bool real = i < L * H * D;
          EXPECT_EQ(kernel.at("o").bits_at(row), real ? alone.at("o").bits_at(i) : 0u) << at << " o " << i;
          EXPECT_EQ(oracle.at("o")[static_cast<std::size_t>(row)],
                    real ? alone_oracle.at("o")[static_cast<std::size_t>(i)] : 0.0)
              << at << " o " << i;
        }
        for (std::int64_t s = 0; s < S; ++s)
          for (std::int64_t h = 0; h < H; ++h) {
            const std::int64_t row = b * S * H + s * H + h, there = h * L + s;  // sdpa's lse column h*S + s
            EXPECT_EQ(kernel.at("lse").bits_at(row), s < L ? alone.at("lse").bits_at(there) : 0u) << at << " lse";
            EXPECT_EQ(oracle.at("lse")[static_cast<std::size_t>(row)],
                      s < L ? alone_oracle.at("lse")[static_cast<std::size_t>(there)] : 0.0)
                << at << " lse";
          }
      }
    }
}

// Non-causal queries of a sequence shorter than max_seqlen, not the batch's last: the kernel is
// within its bounds; reading the next sequence's keys is not.
TEST(SdpaVarlen, KeysPastTheSequencesLengthAreOutsideTheBounds) {
  const Case c = varlen_case({2, 5, 3}, {1, 2}, 4, false, 9);
  EXPECT_TRUE(forward_accuracy(varlen_op.def(), c, *varlen_op.make("parity-host")).holds());
  EXPECT_TRUE(forward_accuracy(varlen_op.def(), c, *varlen_op.make("probe-keys-past-length")).fails());
  const Case causal = varlen_case({2, 5, 3}, {1, 2}, 4, true, 9);  // the probe's causal mask is the kernel's
  EXPECT_TRUE(forward_accuracy(varlen_op.def(), causal, *varlen_op.make("probe-keys-past-length")).holds());
}

// probe-split-from-packed-total: the kernel's bits below 256 packed tokens; from 256 on, as accurate
// but a sequence's bits differ from the same sequence alone (rows_independent).
TEST(SdpaVarlen, TheSplitFromThePackedTotalBreaksBatchInvarianceFrom256Tokens) {
  const OpDef& op = varlen_op.def();
  const auto probe = varlen_op.make("probe-split-from-packed-total");
  const Case below = varlen_case({100, 60, 95}, {1, 1}, 2, false, 4);  // 255 tokens
  const OpOutputs kernel = run_on_matrices(op.decl, *varlen_op.make("parity-host"), materialise(op.decl, below).call);
  const OpOutputs split = run_on_matrices(op.decl, *probe, materialise(op.decl, below).call);
  for (const auto& [name, t] : kernel) EXPECT_EQ(t.values(), split.at(name).values()) << name;
  const Case at = varlen_case({100, 60, 96}, {1, 1}, 2, false, 4);  // 256 tokens
  EXPECT_TRUE(forward_accuracy(op, at, *probe).holds());
  EXPECT_TRUE(rows_independent(op, at, *varlen_op.make("parity-host")).holds());
  EXPECT_TRUE(rows_independent(op, at, *probe).fails());
}

// parity-host handed each input's storage read as contiguous from element 0, as a kernel that
// ignores strides and offset reads it.
class IgnoresStrides : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    OpCall flat = call;
    for (auto& [name, t] : flat.inputs) {
      std::vector<std::int64_t> strides(t.shape().size(), 1);
      for (std::size_t k = strides.size() - 1; k-- > 0;) strides[k] = strides[k + 1] * t.shape()[k + 1];
      Tensor raw = Tensor::strided(t.dtype(), t.shape(), strides, 0, t.storage_elements());
      std::copy(t.storage_bytes().begin(), t.storage_bytes().end(), raw.storage_bytes().begin());
      t = raw.contiguous();
    }
    return host_->run(flat);
  }

 private:
  std::unique_ptr<OpSubject> host_ = varlen_op.make("parity-host");
};

// The case's layouts reach a subject's packed operands: a kernel that reads them as contiguous
// breaks layout_invariant, one that reads them by their strides keeps it.
TEST(SdpaVarlen, LayoutInvariantSeesAKernelThatIgnoresStrides) {
  for (const Layout l : {Layout{.ld_pad = 3}, Layout{.offset = 5}, Layout{.transposed = true}}) {
    Case c = varlen_case({2, 5, 3}, {1, 2}, 4, false, 9);
    c.layouts["q"] = l;
    EXPECT_TRUE(layout_invariant(varlen_op.def(), c, *varlen_op.make("parity-host")).holds()) << l.name();
    IgnoresStrides ignores;
    EXPECT_TRUE(layout_invariant(varlen_op.def(), c, ignores).fails()) << l.name();
  }
}

// parity-host with element `at` of its packed o moved by 1 from its `from`-th call on.
class Nudged : public OpSubject {
 public:
  Nudged(std::int64_t at, int from) : at_(at), from_(from) {}
  OpOutputs run(const OpCall& call) override {
    OpOutputs out = host_->run(call);
    if (calls_++ >= from_) out.at("o").set_value(at_, out.at("o").value_at(at_) + 1.0);
    return out;
  }

 private:
  std::int64_t at_;
  int from_, calls_ = 0;
  std::unique_ptr<OpSubject> host_ = varlen_op.make("parity-host");
};

// Lengths 1 and 3 of S = 3, H = 1, D = 2: o holds 8 real elements of 12 padded. A difference or
// violation at packed row 1 counts the real ones and names sequence 1, position 0.
TEST(SdpaVarlen, MessagesCountRealElementsAndNameTheSequence) {
  const Case c = varlen_case({1, 3}, {1, 1}, 2, false, 3);
  const std::string where = "(sequence 1, position 0 of its 3: packed row 1)";
  Nudged second(2, 1);
  const Verdict again = repeatable(varlen_op.def(), c, second);
  ASSERT_TRUE(again.fails());
  EXPECT_NE(again.detail.find("o: 1 of 8 elements differ"), std::string::npos) << again.detail;
  EXPECT_NE(again.detail.find(where), std::string::npos) << again.detail;
  Nudged always(2, 0);
  const Verdict accuracy = forward_accuracy(varlen_op.def(), c, always);
  ASSERT_TRUE(accuracy.fails());
  EXPECT_NE(accuracy.detail.find("1 of 8 o elements outside"), std::string::npos) << accuracy.detail;
  EXPECT_NE(accuracy.detail.find(where), std::string::npos) << accuracy.detail;
}

// Whether element i of operand `name`'s matrix in the varlen case `c` is a real position: its
// row's position (i % (S * heads * D)) / (heads * D) below the row's length (lse: no D).
bool real_position(const Case& c, const std::string& name, std::int64_t i) {
  const std::int64_t heads = name == "k" || name == "v" ? c.dim("Hkv") : c.dim("Hkv") * c.dim("G");
  const std::int64_t per = heads * (name == "lse" ? 1 : c.dim("D")), width = c.dim("S") * per;
  return (i % width) / per < static_cast<std::int64_t>(c.params.at("S." + std::to_string(i / width)));
}

// Straddle targets and the inputs they move, and the generator's patches, lie on real positions.
TEST(SdpaVarlen, StraddlesAndPatchesLieOnRealPositions) {
  const OpDef& op = varlen_op.def();
  int straddles = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Case c = varlen_case({2, 7, 1}, {1, 2}, 4, seed % 2 == 1, seed);
    c.dims["S"] = 12;  // most of every row padding
    c.params["dtype.act"] = dtype_code(DType::bf16);
    c.probe_row = static_cast<std::int64_t>(seed % 3);
    const StraddlePlan plan = straddle_patches(op, c, 8);
    for (const Straddle& t : plan.targets) EXPECT_TRUE(real_position(c, t.output, t.index)) << seed << " " << t.index;
    for (const Patch& p : plan.patches) {
      ++straddles;
      EXPECT_TRUE(real_position(c, p.operand, p.index)) << seed << " " << p.operand << " " << p.index;
    }
  }
  EXPECT_GT(straddles, 0);
  const rc::Gen<Case> cases = op_case(op);
  for (int k = 0; k < 40; ++k) {
    const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), 30).value();
    for (const Patch& p : c.patches) ASSERT_TRUE(real_position(c, p.operand, p.index)) << c.summary();
  }
}

}  // namespace
}  // namespace parity::ops::sdpa::testing
