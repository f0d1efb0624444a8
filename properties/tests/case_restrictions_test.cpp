// --dtypes and --param as text: what they parse to, their refusals by flag and item, and the
// words a rerun line carries reading back to the same restrictions (values exactly).
#include <gtest/gtest.h>

#include <string>

#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/properties/gen/case_restrictions.hpp>

namespace parity::gen {
namespace {

TEST(CaseRestrictions, TheRerunWordsReadBackToTheSameRestrictions) {
  const CaseRestrictions r{.dtypes = parse_dtype_list("f32,bf16", "--dtypes"),
                           .params = parse_param_values("eps=1e-05,layout=0,scale=0.08838834764831845", "--param")};
  EXPECT_EQ(r.dtypes, (std::vector<DType>{DType::f32, DType::bf16}));
  EXPECT_EQ(r.params.at("scale"), 0.08838834764831845);
  const std::string words = r.flag_words();
  EXPECT_EQ(words, " --dtypes f32,bf16 --param eps=1e-05,layout=0,scale=0.08838834764831845");
  const std::size_t p = words.find(" --param ");
  EXPECT_EQ(parse_param_values(words.substr(p + 9), "--param"), r.params);
  EXPECT_EQ(CaseRestrictions{}.flag_words(), "");
}

TEST(CaseRestrictions, BadTextIsRefusedNamingTheFlagAndTheItem) {
  EXPECT_TRUE(throws_input_error([] { parse_dtype_list("f32,f8", "--dtypes"); }, "--dtypes: unknown dtype 'f8'"));
  EXPECT_TRUE(throws_input_error([] { parse_dtype_list("f32,,bf16", "--dtypes"); }, "--dtypes: an empty item"));
  EXPECT_TRUE(throws_input_error([] { parse_dtype_list("f32,f32", "--dtypes"); }, "f32 is given twice"));
  EXPECT_TRUE(throws_input_error([] { parse_param_values("eps", "--param"); }, "--param: 'eps' is not NAME=VALUE"));
  EXPECT_TRUE(throws_input_error([] { parse_param_values("eps=1e-5x", "--param"); }, "--param eps: '1e-5x' is not"));
  EXPECT_TRUE(throws_input_error([] { parse_param_values("eps=inf", "--param"); }, "not a finite decimal"));
  EXPECT_TRUE(throws_input_error([] { parse_param_values("a=1,a=2", "--param"); }, "a is given twice"));
  EXPECT_TRUE(
      throws_input_error([] { refuse_restrictions("lora", {.dtypes = {DType::f32}}); }, "--dtypes: lora is not"));
  const CaseRestrictions eps{.params = {{"eps", 0.0}}};
  EXPECT_TRUE(throws_input_error([&] { refuse_restrictions("model", eps); }, "--param: model is not"));
  EXPECT_NO_THROW(refuse_restrictions("lora", {}));
}

}  // namespace
}  // namespace parity::gen
