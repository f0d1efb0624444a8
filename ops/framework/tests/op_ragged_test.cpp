// A ragged extent (op_decl.hpp, ExtentDecl::ragged) on a declaration of its own: x [T, S*C] is
// seen by a subject packed as [sum_t L_t, C], a weight w [C] as it is, and the subject returns y
// packed and z [T, C]. The generator draws one length a row in [1, S], at S's thresholds, small
// and at S; the contract refuses a length outside [1, S], fractional or missing, naming the field;
// extra, sliced, gathered and padding rows carry their lengths (row 0's for the added ones);
// the packed view lies in the operand's layout; patches lie on real elements only (drawn, conformed; the contract
// refuses one in padding, naming it) and every padding element of an input is +0; the packed view is the matrix's
// positions s < L_t in order and an output comes back with +0 at every padding position; a Case round-trips through
// JSON with its lengths; and a declaration where the ragged extent cannot work is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops {
namespace {

OpDecl ragged_decl() {
  return {
      .name = "ragged",
      .extents = {{.name = "T", .max = 8},
                  {.name = "S", .max = 64, .thresholds = {16, 32}, .ragged = true},
                  {.name = "C", .max = 4}},
      .inputs = {{.name = "x", .shape = {"T", "S*C"}, .dims = {"T", "S", "C"}}, {.name = "w", .shape = {"C"}}},
      .outputs = {{.name = "y", .shape = {"T", "S*C"}, .dims = {"T", "S", "C"}}, {.name = "z", .shape = {"T", "C"}}},
      .row_extent = "T",
      .reduced_extents = {"S"}};
}

Case ragged_case(std::vector<std::int64_t> lengths, std::int64_t S = 6, std::int64_t C = 2) {
  Case c = testing::case_of("ragged", 7, {{"T", static_cast<std::int64_t>(lengths.size())}, {"S", S}, {"C", C}},
                            {{"dtype.x", 32}, {"dtype.w", 32}, {"dtype.y", 32}, {"dtype.z", 32}});
  for (std::size_t b = 0; b < lengths.size(); ++b) c.params["S." + std::to_string(b)] = static_cast<double>(lengths[b]);
  return c;
}

// Echoes x as y (packed both) and sums each row's C columns of its real positions into z.
class RaggedEcho : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::vector<std::int64_t> cu = call.cu_seqlens("S");
    const std::int64_t C = call.extent("C");
    Tensor z = Tensor::zeros(DType::f32, {call.extent("T"), C});
    for (std::size_t b = 0; b + 1 < cu.size(); ++b)
      for (std::int64_t t = cu[b]; t < cu[b + 1]; ++t)
        for (std::int64_t c = 0; c < C; ++c)
          z.set_value(static_cast<std::int64_t>(b) * C + c,
                      z.value_at(static_cast<std::int64_t>(b) * C + c) + x.value_at(t * C + c));
    return {{"y", x}, {"z", z}};
  }
};

TEST(OpRagged, DrawsOneLengthARowWithinTheExtentAtItsThresholds) {
  const OpDecl d = ragged_decl();
  validate(d);
  const rc::Gen<Case> cases = op_case(d);
  std::set<std::int64_t> seen;
  int below_max = 0, at_max = 0;
  for (int k = 0; k < 300; ++k) {
    const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), k % 100).value();
    ASSERT_NO_THROW(check_contract(d, c)) << c.summary();
    for (std::int64_t b = 0; b < c.dim("T"); ++b) {
      const double n = c.params.at("S." + std::to_string(b));
      ASSERT_TRUE(n >= 1 && n <= static_cast<double>(c.dim("S"))) << c.summary();
      seen.insert(static_cast<std::int64_t>(n));
      (n < static_cast<double>(c.dim("S")) ? below_max : at_max) += 1;
    }
    EXPECT_FALSE(c.params.contains("S." + std::to_string(c.dim("T")))) << c.summary();
  }
  EXPECT_GT(below_max, 0);
  EXPECT_GT(at_max, 0);
  for (const std::int64_t n : {1, 15, 16, 17, 31, 32, 33}) EXPECT_TRUE(seen.contains(n)) << n;
}

TEST(OpRagged, TheContractRefusesALengthOutsideOneToTheExtentNamingIt) {
  const OpDecl d = ragged_decl();
  EXPECT_NO_THROW(check_contract(d, ragged_case({1, 6, 3})));
  const auto refusal = [&](const Case& c) { return input_error_message([&] { check_contract(d, c); }, "accepted"); };
  EXPECT_NE(refusal(ragged_case({1, 0, 3})).find("case.params.S.1"), std::string::npos);
  EXPECT_NE(refusal(ragged_case({1, 7, 3})).find("case.params.S.1"), std::string::npos);
  Case fractional = ragged_case({1, 2, 3});
  fractional.params["S.2"] = 2.5;
  EXPECT_NE(refusal(fractional).find("case.params.S.2"), std::string::npos);
  Case missing = ragged_case({1, 2, 3});
  missing.params.erase("S.0");
  EXPECT_NE(refusal(missing).find("case.params.S.0"), std::string::npos);
  Case extra = ragged_case({1, 2, 3});
  extra.params["S.3"] = 1;
  EXPECT_NE(refusal(extra).find("S.3"), std::string::npos);
}

TEST(OpRagged, AddedSlicedAndGatheredRowsCarryTheirLengths) {
  const OpDecl d = ragged_decl();
  const OpProblem p = materialise(d, ragged_case({2, 6, 3}));
  EXPECT_EQ(p.call.lengths.at("S"), (std::vector<std::int64_t>{2, 6, 3}));
  EXPECT_EQ(p.values.lengths.at("S"), (std::vector<std::int64_t>{2, 6, 3}));
  EXPECT_EQ(materialise(d, ragged_case({2, 6, 3}), 1).call.lengths.at("S"), (std::vector<std::int64_t>{2, 6, 3, 2}));
  EXPECT_EQ(row_slice(d, p, 1, 3).values.lengths.at("S"), (std::vector<std::int64_t>{6, 3}));
  const OpProblem g = row_gather(d, p, {2, kZeroRow, 0, 2});
  EXPECT_EQ(g.call.lengths.at("S"), (std::vector<std::int64_t>{3, 2, 2, 3}));
  EXPECT_EQ(g.values.lengths, g.call.lengths);
  EXPECT_EQ(g.call.cu_seqlens("S"), (std::vector<std::int64_t>{0, 3, 5, 7, 10}));
}

TEST(OpRagged, APackedOperandIsTheRealPositionsInOrderAndComesBackWithZeroPadding) {
  const OpDecl d = ragged_decl();
  const std::vector<std::int64_t> lengths = {2, 6, 3};
  constexpr std::int64_t S = 6, C = 2;
  Case c = ragged_case(lengths, S, C);
  c.layouts["x"] = Layout{.transposed = true, .ld_pad = 3, .offset = 5};
  const OpProblem p = materialise(d, c);
  const OpCall call = subject_call(d, p.call);
  const Tensor& x = call.input("x");
  ASSERT_EQ(x.shape(), (std::vector<std::int64_t>{11, C}));
  // In x's layout: the packed matrix [11, C] transposed, its leading dimension 11 + 3, at offset 5.
  EXPECT_EQ(x.strides(), (std::vector<std::int64_t>{1, 14}));
  EXPECT_EQ(x.offset(), 5);
  EXPECT_TRUE(subject_call(d, materialise(d, c, 0, true).call).input("x").is_contiguous());
  EXPECT_EQ(call.input("w").shape(), (std::vector<std::int64_t>{C}));  // not ragged: as it is
  const std::vector<double>& matrix = p.values.inputs.at("x");
  std::int64_t token = 0;
  for (std::int64_t b = 0; b < 3; ++b)
    for (std::int64_t s = 0; s < lengths[static_cast<std::size_t>(b)]; ++s, ++token)
      for (std::int64_t k = 0; k < C; ++k)
        ASSERT_EQ(x.value_at(token * C + k), matrix[static_cast<std::size_t>(b * S * C + s * C + k)]) << b << " " << s;
  RaggedEcho echo;
  const OpOutputs out = run_on_matrices(d, echo, p.call);
  const Tensor& y = out.at("y");
  ASSERT_EQ(y.shape(), (std::vector<std::int64_t>{3, S * C}));
  for (std::int64_t b = 0; b < 3; ++b)
    for (std::int64_t i = 0; i < S * C; ++i) {
      const bool real = i / C < lengths[static_cast<std::size_t>(b)];
      // A padding position of x holds a drawn value; y's is +0 (bits 0), whatever the subject did.
      ASSERT_EQ(y.bits_at(b * S * C + i), real ? Tensor(p.call.input("x").rows(b, b + 1)).bits_at(i) : 0u)
          << b << " " << i;
    }
  // A subject's output of the padded dims (or any other shape than the packed one) is a fault.
  class Padded : public OpSubject {
   public:
    OpOutputs run(const OpCall& /*call*/) override {
      return {{"y", Tensor::zeros(DType::f32, {3, S, C})}, {"z", Tensor::zeros(DType::f32, {3, C})}};
    }
  } padded;
  EXPECT_THROW(run_on_matrices(d, padded, p.call), std::invalid_argument);
}

// Whether element i of x's matrix in `c` is real: its row's position i % (S*C) / C < L_row.
bool x_real(const Case& c, std::int64_t i) {
  const std::int64_t width = c.dim("S") * c.dim("C");
  return width > 0 &&
         (i % width) / c.dim("C") < static_cast<std::int64_t>(c.params.at("S." + std::to_string(i / width)));
}

TEST(OpRagged, PatchesLieOnRealElementsOnly) {
  const OpDecl d = ragged_decl();
  const rc::Gen<Case> cases = op_case(d);
  int on_x = 0;
  for (int k = 0; k < 300; ++k) {
    const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), k % 100).value();
    for (const Patch& p : c.patches)
      if (p.operand == "x") {
        ++on_x;
        ASSERT_TRUE(x_real(c, p.index)) << c.summary();
      }
  }
  EXPECT_GT(on_x, 50);
  // conform moves a patch whose row's length shrank onto a real element.
  Case c = ragged_case({6, 6});
  c.patches.push_back({"x", 1 * 12 + 11, 0x7fc00000u, DType::f32});  // row 1, position 5
  c.params["S.1"] = 2;
  const Case conformed = op_rules(d).conform(c);
  ASSERT_EQ(conformed.patches.size(), 1u);
  EXPECT_TRUE(x_real(conformed, conformed.patches[0].index)) << conformed.patches[0].index;
  EXPECT_NO_THROW(check_contract(d, conformed));
}

TEST(OpRagged, TheContractRefusesAPatchInPaddingNamingIt) {
  const OpDecl d = ragged_decl();
  Case c = ragged_case({2, 6, 3});  // S 6, C 2: row 0's real elements are 0 to 3 of 12
  c.patches.push_back({"w", 1, 0x3f800000u, DType::f32});
  c.patches.push_back({"x", 3, 0x3f800000u, DType::f32});
  EXPECT_NO_THROW(check_contract(d, c));
  c.patches.push_back({"x", 4, 0x3f800000u, DType::f32});
  EXPECT_TRUE(throws_input_error([&] { check_contract(d, c); }, "case.patches[2].index"))
      << "a patch in padding accepted";
}

TEST(OpRagged, EveryPaddingElementOfAnInputIsPositiveZero) {
  const OpDecl d = ragged_decl();
  const std::vector<std::int64_t> lengths = {2, 6, 1};
  Case c = ragged_case(lengths);
  c.layouts["x"] = Layout{.transposed = true, .ld_pad = 3, .offset = 5};
  c.patches.push_back({"x", 0, 0xff800000u, DType::f32});  // -inf, real
  const OpProblem p = materialise(d, c, 1);
  const Tensor x = p.call.input("x").contiguous();
  ASSERT_EQ(x.shape(), (std::vector<std::int64_t>{4, 12}));
  int real_nonzero = 0;
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const bool real = i / 2 % 6 < (i < 36 ? lengths[static_cast<std::size_t>(i / 12)] : lengths[0]);
    if (!real) {
      EXPECT_EQ(x.bits_at(i), 0u) << i;
      EXPECT_EQ(std::signbit(p.values.inputs.at("x")[static_cast<std::size_t>(i)]), false) << i;
      EXPECT_EQ(p.values.inputs.at("x")[static_cast<std::size_t>(i)], 0.0) << i;
    } else if (x.bits_at(i) != 0) {
      ++real_nonzero;
    }
  }
  EXPECT_EQ(real_nonzero, (2 + 6 + 1 + 2) * 2);  // drawn values where real
}

TEST(OpRagged, ACaseRoundTripsThroughJsonWithItsLengths) {
  const OpDecl d = ragged_decl();
  const rc::Gen<Case> cases = op_case(d);
  for (int k = 0; k < 20; ++k) {
    const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), 50).value();
    const Case back = case_from_json(case_to_json(c));
    EXPECT_EQ(back, c);
    EXPECT_EQ(materialise(d, back).call.lengths, materialise(d, c).call.lengths);
  }
}

TEST(OpRagged, ConformKeepsEachLengthWithinTheShrunkExtentAndDropsRemovedRows) {
  const OpDecl d = ragged_decl();
  Case c = ragged_case({2, 6, 3});
  c.dims["S"] = 3;
  c.dims["T"] = 2;
  const Case conformed = op_rules(d).conform(c);
  EXPECT_EQ(conformed.params.at("S.0"), 2);
  EXPECT_EQ(conformed.params.at("S.1"), 3);
  EXPECT_FALSE(conformed.params.contains("S.2"));
  EXPECT_NO_THROW(check_contract(d, conformed));
}

TEST(OpRagged, ADeclarationWhereTheRaggedExtentCannotWorkIsRefused) {
  const auto refused = [](OpDecl d, const std::string& part) {
    try {
      validate(d);
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted; expected a refusal naming " << part;
  };
  OpDecl row = ragged_decl();
  row.extents[0].ragged = true;
  refused(row, "ragged extent T");
  OpDecl empty = ragged_decl();  // an extent no operand holds, so that only its raggedness is at fault
  empty.extents.push_back({.name = "E", .min = 0, .ragged = true});
  refused(empty, "ragged extent E: a ragged extent needs min >= 1");
  OpDecl flat = ragged_decl();
  flat.inputs[0].dims = {};
  refused(flat, "x holds it");
  OpDecl shared = ragged_decl();
  shared.inputs[1].shape = {"S"};
  refused(shared, "w holds it");
  OpDecl third = ragged_decl();
  third.outputs[0].dims = {"T", "C", "S"};
  refused(third, "y holds it");
}

}  // namespace
}  // namespace parity::ops
