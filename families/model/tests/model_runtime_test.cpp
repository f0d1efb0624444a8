// The model under each runtime mode on a small configuration: the binding log says what the
// mode, the ablations and the registry imply, audit binds what strict binds and off binds no routine,
// strict raises on a forced fallback naming the boundary, and audit records it.
#include <gtest/gtest.h>

#include <parity/core/compare.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/torch/model_torch.hpp>

namespace parity::model {
namespace {

struct ModelSetup {
  ModelConfig config;
  ModelWeights weights;
  ModelBatch batch;
  explicit ModelSetup(std::int64_t tokens, DType audio = DType::f32, std::int64_t samples = 1)
      : weights(ModelWeights::draw(config, 5)),
        batch(ModelBatch::draw(config, TokenSplit::of(tokens), 9, 0, samples, audio)) {}
  ModelOutputs run(runtime::Runtime* rt) const { return run_model(config, weights, batch, rt); }
};

runtime::Runtime make_runtime(runtime::Mode mode, std::vector<std::string> ablations = {}) {
  runtime::RuntimeOptions o;
  o.mode = mode;
  for (const auto& a : ablations) o.ablations.push_back(runtime::parse_ablation(a));
  return runtime::Runtime(model_routines(), o);
}

TEST(ModelRuntime, StrictBindsTheDefaultRoutinesAndLeavesTheRestToTheProvider) {
  ModelSetup s(12);
  auto rt = make_runtime(runtime::Mode::strict);
  s.run(&rt);
  const auto& e = rt.log().entries();
  EXPECT_EQ(e.at("audio_proj_in").routine, "audio_input_projection_fp32");
  EXPECT_EQ(e.at("audio_proj_in").status, runtime::BindingStatus::routine);
  EXPECT_EQ(e.at("blocks.1.attention").status, runtime::BindingStatus::routine);
  EXPECT_EQ(e.at("proj_in").status, runtime::BindingStatus::provider);
  EXPECT_EQ(e.at("proj_in").routine, "");
  EXPECT_EQ(e.at("time_embedder").status, runtime::BindingStatus::provider);
  EXPECT_EQ(rt.case_id(), "R/R");
}

// Where each mode runs parity's routines is the runtime's, and parity's to guarantee. The bits of a
// run are partly LibTorch's (the provider runs every boundary without a routine): whether two runs
// agree is what the model family's properties check (strict_repeatable, audit_equals_strict,
// off_equals_provider) on a subject, with a reproducer when it does not; this unit test of the
// runtime asserts only the decisions, and that two strict runs decide alike.
TEST(ModelRuntime, StrictDecidesAlikeAuditBindsWhatStrictBindsOffBindsNoRoutine) {
  ModelSetup s(20, DType::f32, 2);
  auto strict = make_runtime(runtime::Mode::strict), audit = make_runtime(runtime::Mode::audit);
  auto off = make_runtime(runtime::Mode::off);
  auto again = make_runtime(runtime::Mode::strict);
  s.run(&strict);
  s.run(&again);
  s.run(&audit);
  s.run(&off);
  const auto& bound = strict.log().entries();
  ASSERT_TRUE(strict.log().any_routine());
  EXPECT_EQ(again.log().entries().size(), bound.size());
  EXPECT_EQ(audit.log().entries().size(), bound.size());
  EXPECT_EQ(off.log().entries().size(), bound.size());
  for (const auto& [boundary, b] : bound) {
    for (const runtime::Runtime* rt : {&again, &audit}) {
      const runtime::Binding& a = rt->log().entries().at(boundary);
      EXPECT_EQ(a.routine, b.routine) << boundary;
      EXPECT_EQ(a.status, b.status) << boundary;
      EXPECT_EQ(a.calls, b.calls) << boundary;
    }
    EXPECT_EQ(off.log().entries().at(boundary).status, runtime::BindingStatus::provider) << boundary;
  }
  EXPECT_FALSE(off.log().any_routine());
}

TEST(ModelRuntime, StrictRaisesOnAForcedFallbackAndAuditRecordsIt) {
  ModelSetup s(12, DType::bf16);
  auto strict = make_runtime(runtime::Mode::strict);
  try {
    s.run(&strict);
    FAIL() << "strict ran through a fallback";
  } catch (const runtime::BindingError& e) {
    EXPECT_NE(std::string(e.what()).find("audio_proj_in"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bf16"), std::string::npos) << e.what();
  }
  auto audit = make_runtime(runtime::Mode::audit);
  s.run(&audit);
  EXPECT_EQ(audit.log().entries().at("audio_proj_in").status, runtime::BindingStatus::fallback);
}

TEST(ModelRuntime, AnAblationLeavesItsTargetToTheProvider) {
  ModelSetup s(12);
  auto rt = make_runtime(runtime::Mode::strict, {"node:attention", "boundary:token_refiner"});
  s.run(&rt);
  const auto& e = rt.log().entries();
  EXPECT_EQ(e.at("blocks.0.attention").status, runtime::BindingStatus::provider);
  EXPECT_EQ(e.at("token_refiner").status, runtime::BindingStatus::provider);
  EXPECT_EQ(e.at("token_refiner").routine, "token_refiner_block");
  EXPECT_EQ(e.at("blocks.0.feed_forward").status, runtime::BindingStatus::routine);
  EXPECT_EQ(rt.case_id(), "ablation");
}

TEST(ModelRuntime, WithEveryBoundaryBoundASampleIsTheSameAloneAndInABatch) {
  ModelSetup batch(20, DType::f32, 3);
  runtime::RuntimeOptions o;
  o.bind_all = true;
  runtime::Runtime rt(model_routines(), o);
  const auto all = batch.run(&rt);
  ModelSetup alone = batch;
  alone.batch = batch.batch.sample(1);
  runtime::Runtime rt1(model_routines(), o);
  const auto one = alone.run(&rt1);
  EXPECT_TRUE(compare_bitwise(all.video.rows(1, 2), one.video).equal());
  EXPECT_TRUE(compare_bitwise(all.audio.rows(1, 2), one.audio).equal());
  EXPECT_TRUE(compare_bitwise(all.input_grad.rows(1, 2), one.input_grad).equal());
  EXPECT_TRUE(compare_bitwise(all.logp.rows(1, 2), one.logp).equal());
}

}  // namespace
}  // namespace parity::model
