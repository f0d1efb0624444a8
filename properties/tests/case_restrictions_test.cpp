// --dtypes and --param as text: what they parse to, their refusals by flag and item, and the
// words a rerun line carries reading back to the same restrictions (values exactly).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/properties/gen/case_restrictions.hpp>

namespace parity::gen {
namespace {

std::string refusal(const std::function<void()>& f) { return input_error_message(f, "accepted"); }

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
  EXPECT_NE(refusal([] { parse_dtype_list("f32,f8", "--dtypes"); }).find("--dtypes: unknown dtype 'f8'"),
            std::string::npos);
  EXPECT_NE(refusal([] { parse_dtype_list("f32,,bf16", "--dtypes"); }).find("--dtypes: an empty item"),
            std::string::npos);
  EXPECT_NE(refusal([] { parse_dtype_list("f32,f32", "--dtypes"); }).find("f32 is given twice"), std::string::npos);
  EXPECT_NE(refusal([] { parse_param_values("eps", "--param"); }).find("--param: 'eps' is not NAME=VALUE"),
            std::string::npos);
  EXPECT_NE(refusal([] { parse_param_values("eps=1e-5x", "--param"); }).find("--param eps: '1e-5x' is not"),
            std::string::npos);
  EXPECT_NE(refusal([] { parse_param_values("eps=inf", "--param"); }).find("not a finite decimal"), std::string::npos);
  EXPECT_NE(refusal([] { parse_param_values("a=1,a=2", "--param"); }).find("a is given twice"), std::string::npos);
  EXPECT_NE(refusal([] { refuse_restrictions("lora", {.dtypes = {DType::f32}}); }).find("--dtypes: lora is not"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              refuse_restrictions("model", {.params = {{"eps", 0.0}}});
            }).find("--param: model is not"),
            std::string::npos);
  EXPECT_EQ(refusal([] { refuse_restrictions("lora", {}); }), "accepted");
}

}  // namespace
}  // namespace parity::gen
