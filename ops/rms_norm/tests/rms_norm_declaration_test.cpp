// The op framework on rms_norm's declaration: faulty variants of it refused, its work as a sum of
// products, a group's own dtypes, generated cases inside the contract and within a declared work
// maximum, a taller batch holding the same bits in its first rows, and contract errors naming the
// field.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>

namespace parity::ops {
namespace {

TEST(OpDecl, ValidateRefusesAFaultyDeclaration) {
  OpDecl d = rms_norm::RmsNorm::declaration();
  EXPECT_NO_THROW(validate(d));
  OpDecl rowless = d;
  rowless.extents[0].min = 0;  // the row extent T may not vanish
  EXPECT_THROW(validate(rowless), std::logic_error);
  OpDecl emptiable = d;  // an extent of min 0 may add to a dim, never be one alone
  emptiable.extents.push_back({.name = "Q", .max = 4, .min = 0});
  EXPECT_NO_THROW(validate(emptiable));
  emptiable.inputs[0].shape = {"T", "D+Q"};
  emptiable.outputs[0].shape = {"T", "D+Q"};
  EXPECT_NO_THROW(validate(emptiable));
  emptiable.inputs[1].shape = {"Q"};
  EXPECT_THROW(validate(emptiable), std::logic_error);
  OpDecl meanless = d;  // a reduced extent of min 0 is a mean over no terms
  meanless.extents[1].min = 0;
  EXPECT_THROW(validate(meanless), std::logic_error);
  d.inputs[0].shape = {"T", "Q"};
  EXPECT_THROW(validate(d), std::logic_error);
  d = rms_norm::RmsNorm::declaration();
  d.row_extent = "D2";
  EXPECT_THROW(validate(d), std::logic_error);
}

TEST(OpDecl, WorkIsASumOfProducts) {
  OpDecl d = rms_norm::RmsNorm::declaration();
  d.work = "T*D*D + 2*T + D";
  EXPECT_EQ(work_of(d, {{"T", 3}, {"D", 5}}), 3 * 5 * 5 + 2 * 3 + 5);
  d.work = "T*D +";
  EXPECT_THROW(validate(d), std::logic_error);
}

// A group's own dtype list: drawn from it alone, checked against it, and validated.
TEST(OpDecl, AGroupMayHaveDtypesOfItsOwn) {
  OpDecl d = rms_norm::RmsNorm::declaration();
  EXPECT_EQ(d.dtypes_of("act"), d.dtypes);
  d.group_dtypes = {{"act", {DType::f16}}};
  EXPECT_NO_THROW(validate(d));
  EXPECT_EQ(d.dtypes_of("act"), std::vector<DType>{DType::f16});
  Case c;
  c.family = "rms_norm";
  c.dims = {{"T", 2}, {"D", 3}};
  c.params = {{"eps", 1e-6f}, {"dtype.act", dtype_code(DType::f32)}, {"scale.x", 1.0}};
  EXPECT_THROW(check_contract(d, c), InputError);  // f32 is in dtypes, not in act's own list
  c.params["dtype.act"] = dtype_code(DType::f16);
  EXPECT_NO_THROW(check_contract(d, c));
  d.group_dtypes = {{"weights", {DType::f32}}};  // no operand's group
  EXPECT_THROW(validate(d), std::logic_error);
  d.group_dtypes = {{"act", {}}};
  EXPECT_THROW(validate(d), std::logic_error);
}

RC_GTEST_PROP(OpCases, AGroupsOwnDtypesAreTheOnlyOnesDrawn, ()) {
  OpDecl d = rms_norm::RmsNorm::declaration();
  d.group_dtypes = {{"act", {DType::bf16}}};
  const Case c = *op_case(d);
  RC_ASSERT(c.params.at("dtype.act") == dtype_code(DType::bf16));
}

RC_GTEST_PROP(OpCases, GeneratedCasesSatisfyTheContract, ()) {
  const OpDecl d = rms_norm::RmsNorm::declaration();
  const Case c = *op_case(d);
  check_contract(d, c);  // throws InputError outside the contract
  const gen::CaseRules rules = op_rules(d);
  Case smaller = c;
  smaller.dims["T"] = 1;
  rules.check_contract(rules.conform(smaller));
}

RC_GTEST_PROP(OpProblem, ATallerBatchHoldsTheSameRows, ()) {
  const OpDecl d = rms_norm::RmsNorm::declaration();
  const Case c = *op_case(d);
  const OpProblem p = materialise(d, c), taller = materialise(d, c, 1), plain = materialise(d, c, 0, true);
  const auto& x = p.values.inputs.at("x");
  const auto& tx = taller.values.inputs.at("x");
  RC_ASSERT(tx.size() == x.size() + static_cast<std::size_t>(c.dim("D")));
  const auto same = [](double a, double b) { return std::isnan(a) ? std::isnan(b) : a == b; };
  for (std::size_t i = 0; i < x.size(); ++i) RC_ASSERT(same(x[i], tx[i]));
  const std::vector<double> placed = p.call.inputs.at("x").values(), contiguous = plain.call.inputs.at("x").values();
  for (std::size_t i = 0; i < x.size(); ++i) RC_ASSERT(same(placed[i], contiguous[i]));
}

// An op declaring its work (attention's B*H*S*S*D) gets cases whose work, with the extra batch
// row, is within max_work, and a case past it is refused naming case.dims.
OpDecl with_work() {
  OpDecl d = rms_norm::RmsNorm::declaration();
  d.work = "T*D*D";
  d.max_work = std::int64_t{1} << 16;
  return d;
}

RC_GTEST_PROP(OpCases, GeneratedCasesKeepTheirWorkWithinTheDeclaredMaximum, ()) {
  const OpDecl d = with_work();
  const Case c = *op_case(d);
  RC_ASSERT((c.dim("T") + 1) * c.dim("D") * c.dim("D") <= d.max_work);
  check_contract(d, c);
}

// The generated cases stay within max_work (above); the contract admits a case past it, up to
// kWorkLimit, so that a case drawn under a user's raised reach caps replays.
TEST(OpProblem, ContractRefusesWorkPastTheLimit) {
  const OpDecl d = with_work();
  Case c;
  c.family = "rms_norm";
  c.dims = {{"T", 1}, {"D", 128}};
  c.params = {{"eps", 1e-6f}, {"dtype.act", 32}, {"scale.x", 1.0}};
  EXPECT_NO_THROW(check_contract(d, c));  // (1 + 1) * 128 * 128 = 2^15
  c.dims["T"] = 3;                        // 4 * 128 * 128 = 2^16
  EXPECT_NO_THROW(check_contract(d, c));
  c.dims["T"] = 4;  // 5 * 128 * 128, past max_work
  EXPECT_NO_THROW(check_contract(d, c));
  c.dims = {{"T", 256}, {"D", 65536}};  // 257 * 2^32 > 2^40, with x of 2^24 elements
  ASSERT_TRUE(throws_input_error([&] { check_contract(d, c); }, "case.dims: the work T*D*D"))
      << "work past kWorkLimit accepted";
  OpDecl bad = d;
  bad.work = "T*Q";
  EXPECT_THROW(validate(bad), std::logic_error);
}

TEST(OpProblem, ContractNamesTheField) {
  const OpDecl d = rms_norm::RmsNorm::declaration();
  Case c;
  c.family = "rms_norm";
  c.dims = {{"T", 2}, {"D", 3}};
  c.params = {{"eps", 1e-6f}, {"dtype.act", 32}, {"scale.x", 1.0}};
  EXPECT_NO_THROW(check_contract(d, c));
  c.dims["D"] = (std::int64_t{1} << 20) + 1;  // past D's limit (a user's cap may raise max to it)
  ASSERT_TRUE(throws_input_error([&] { check_contract(d, c); }, "case.dims.D")) << "D = 2^20 + 1 accepted";
  c.dims["D"] = 3;
  c.params["dtype.act"] = 8;
  EXPECT_THROW(check_contract(d, c), InputError);
}

}  // namespace
}  // namespace parity::ops
