// User caps on an op's extents (OpFamily::extent_caps, RunConfig::max_extents,
// $PARITY_MAX_<EXT>): every declared extent is cappable without a flag of its own, a cap
// outside [min, limit] or of an unknown extent is refused before any case runs, the generated
// cases stay within the caps, and a Case above the declared max but within the limit is in the
// contract (a run under a raised cap replays).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>

namespace parity::ops {
namespace {

using testing::Scale;
using testing::scale_case;

// The largest T and D any call saw.
std::int64_t seen_T = 0, seen_D = 0;

class Recording : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    seen_T = std::max(seen_T, x.dim(0));
    seen_D = std::max(seen_D, x.dim(1));
    Tensor y = Tensor::zeros(call.output_dtype("y"), x.shape());
    for (std::int64_t k = 0; k < y.numel(); ++k)
      y.set_value(k, static_cast<float>(x.value_at(k)) * static_cast<float>(call.input("w").value_at(k % x.dim(1))));
    return {{"y", std::move(y)}};
  }
};

const OpFamily& family() {
  static const OpFamily f(define_op<Scale>(), [] {
    register_op_subject("test_scale",
                        {.name = "recording", .backend = "host", .description = "y = x * w in float32", .make = [] {
                           return std::unique_ptr<OpSubject>(std::make_unique<Recording>());
                         }});
  });
  return f;
}

std::string refusal(const gen::ExtentMaxima& maxima) {
  return input_error_message([&] { family().run("recording", "repeatable", {.cases = 5, .max_extents = maxima}); }, "");
}

TEST(OpCaps, EveryExtentIsCappableWithoutAFlagOfItsOwn) {
  const auto caps = family().extent_caps();
  ASSERT_EQ(caps.size(), 3u);  // T, D, then the reach cases' largest operand (no work declared)
  EXPECT_EQ(caps[0].extent, "T");
  EXPECT_EQ(caps[0].default_max, 16);
  EXPECT_EQ(caps[1].extent, "D");
  EXPECT_EQ(caps[1].min, 2);
  EXPECT_EQ(caps[1].limit, 256);
  EXPECT_EQ(caps[2].extent, kReachElementsCap);
}

TEST(OpCaps, ABadCapIsRefusedNamingIt) {
  EXPECT_NE(refusal({{"D", 1}}).find("outside [2, 256]"), std::string::npos) << refusal({{"D", 1}});
  EXPECT_NE(refusal({{"D", 257}}).find("outside [2, 256]"), std::string::npos);
  EXPECT_NE(refusal({{"Q", 3}}).find("no extent Q"), std::string::npos) << refusal({{"Q", 3}});
  ::setenv("PARITY_MAX_D", "1", 1);
  EXPECT_NE(refusal({}).find("PARITY_MAX_D"), std::string::npos) << refusal({});
  ::unsetenv("PARITY_MAX_D");
}

TEST(OpCaps, GeneratedCasesStayWithinTheCaps) {
  seen_T = seen_D = 0;
  const auto capped = family().run("recording", "repeatable", {.cases = 60, .max_extents = {{"T", 3}, {"D", 5}}});
  EXPECT_TRUE(capped.passed) << capped.message;
  EXPECT_LE(seen_T, 3);
  EXPECT_LE(seen_D, 5);
  // Raised above the declared max (16): the generator reaches past it.
  seen_T = seen_D = 0;
  ::setenv("PARITY_MAX_T", "200", 1);
  const auto raised = family().run("recording", "repeatable", {.cases = 60});
  ::unsetenv("PARITY_MAX_T");
  EXPECT_TRUE(raised.passed) << raised.message;
  EXPECT_GT(seen_T, 16);
  EXPECT_LE(seen_T, 200);
}

TEST(OpCaps, TheContractIsTheLimitNotTheDefaultMax) {
  const OpDef op = define_op<Scale>();
  EXPECT_NO_THROW(check_contract(op.decl, scale_case(1, 200, DType::f32, DType::f32)));
  EXPECT_THROW(check_contract(op.decl, scale_case(1, 257, DType::f32, DType::f32)), InputError);
  EXPECT_THROW(check_contract(op.decl, scale_case(1, 1, DType::f32, DType::f32)), InputError);  // below D's min
}

}  // namespace
}  // namespace parity::ops
