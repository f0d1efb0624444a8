// The model under each runtime mode on a small configuration: the binding log says what the
// mode, the ablations and the registry imply, strict raises on a forced fallback naming the
// boundary, audit records it, and off equals the pure LibTorch run.
#include <gtest/gtest.h>

#include <parity/core/compare.hpp>
#include <parity/families/model/rows/model_rows.hpp>
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
  return runtime::Runtime(model_rows(), o);
}

void expect_bitwise(const ModelOutputs& a, const ModelOutputs& b) {
  EXPECT_TRUE(compare_bitwise(a.video, b.video).equal());
  EXPECT_TRUE(compare_bitwise(a.audio, b.audio).equal());
  EXPECT_TRUE(compare_bitwise(a.input_grad, b.input_grad).equal());
  EXPECT_TRUE(compare_bitwise(a.logp, b.logp).equal());
}

TEST(ModelRuntime, StrictBindsTheDefaultRowsAndLeavesTheRestToTheProvider) {
  ModelSetup s(12);
  auto rt = make_runtime(runtime::Mode::strict);
  s.run(&rt);
  const auto& e = rt.log().entries();
  EXPECT_EQ(e.at("audio_proj_in").row, "audio_input_projection_fp32");
  EXPECT_EQ(e.at("audio_proj_in").status, runtime::BindingStatus::row);
  EXPECT_EQ(e.at("blocks.1.attention").status, runtime::BindingStatus::row);
  EXPECT_EQ(e.at("proj_in").status, runtime::BindingStatus::provider);
  EXPECT_EQ(e.at("proj_in").row, "");
  EXPECT_EQ(e.at("time_embedder").status, runtime::BindingStatus::provider);
  EXPECT_EQ(rt.case_id(), "R/R");
}

TEST(ModelRuntime, StrictIsRepeatableAuditEqualsStrictOffEqualsPureLibTorch) {
  ModelSetup s(20, DType::f32, 2);
  auto strict = make_runtime(runtime::Mode::strict), again = make_runtime(runtime::Mode::strict);
  auto audit = make_runtime(runtime::Mode::audit), off = make_runtime(runtime::Mode::off);
  const auto a = s.run(&strict);
  expect_bitwise(a, s.run(&again));
  expect_bitwise(a, s.run(&audit));
  const auto pure = s.run(nullptr);
  expect_bitwise(s.run(&off), pure);
  EXPECT_FALSE(compare_bitwise(a.video, pure.video).equal()) << "rows and LibTorch agreeing to the bit is implausible";
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
  EXPECT_EQ(e.at("token_refiner").row, "token_refiner_block");
  EXPECT_EQ(e.at("blocks.0.feed_forward").status, runtime::BindingStatus::row);
  EXPECT_EQ(rt.case_id(), "ablation");
}

TEST(ModelRuntime, WithEveryBoundaryBoundASampleIsTheSameAloneAndInABatch) {
  ModelSetup batch(20, DType::f32, 3);
  runtime::RuntimeOptions o;
  o.bind_all = true;
  runtime::Runtime rt(model_rows(), o);
  const auto all = batch.run(&rt);
  ModelSetup alone = batch;
  alone.batch = batch.batch.sample(1);
  runtime::Runtime rt1(model_rows(), o);
  const auto one = alone.run(&rt1);
  EXPECT_TRUE(compare_bitwise(all.video.rows(1, 2), one.video).equal());
  EXPECT_TRUE(compare_bitwise(all.audio.rows(1, 2), one.audio).equal());
  EXPECT_TRUE(compare_bitwise(all.input_grad.rows(1, 2), one.input_grad).equal());
  EXPECT_TRUE(compare_bitwise(all.logp.rows(1, 2), one.logp).equal());
}

}  // namespace
}  // namespace parity::model
