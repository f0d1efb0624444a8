// A LoRA subject without backward (capabilities.backward = false): repeatable, rows_independent
// and layout_invariant run on its forward alone and hold (its backward throws, so a check that
// called it would fail), each of them still catches a forward that breaks its claim, and the
// gradient properties are reported not applicable, never holding, by runs and by replay.
#include <gtest/gtest.h>

#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/properties/gen/lora_runs.hpp>
#include <parity/subjects/builtin/lora_host.hpp>

namespace {

using parity::Tensor;
using parity::subjects::LoraGradients;
using parity::subjects::LoraInputs;
using parity::subjects::LoraSubject;
using parity::subjects::LoraSubjectInfo;

// When a forward's result is perturbed: on which inputs, or on which call of an instance.
enum class Bug { none, second_call, batched, strided };

bool any_strided(const LoraInputs& in) {
  return !in.x.is_contiguous() || !in.W.is_contiguous() || !in.A.is_contiguous() || !in.B.is_contiguous();
}

// parity's host twin's forward, with every y element's lowest bit flipped where `bug` says.
template <Bug bug>
class ForwardOnly final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override {
    Tensor y = twin_->forward(in);
    const bool perturb = (bug == Bug::second_call && ++calls_ == 2) || (bug == Bug::batched && in.x.dim(0) > 1) ||
                         (bug == Bug::strided && any_strided(in));
    if (perturb)
      for (std::int64_t i = 0; i < y.numel(); ++i) y.set_bits(i, y.bits_at(i) ^ 1u);
    return y;
  }
  LoraGradients backward(const LoraInputs&, const Tensor&) override {
    throw std::logic_error("backward called on a subject registered without backward");
  }

 private:
  std::unique_ptr<LoraSubject> twin_ = parity::subjects::builtin::make_lora_host_twin();
  int calls_ = 0;
};

template <Bug bug>
LoraSubjectInfo forward_only(const char* name) {
  return {.name = name,
          .backend = "host",
          .description = "the host twin's forward only (lora_forward_only_test)",
          .capabilities = {.backward = false},
          .make = [] { return std::make_unique<ForwardOnly<bug>>(); }};
}

PARITY_REGISTER_SUBJECT(forward_only, forward_only<Bug::none>("forward-only"));
PARITY_REGISTER_SUBJECT(forward_only_second_call, forward_only<Bug::second_call>("forward-only-second-call"));
PARITY_REGISTER_SUBJECT(forward_only_batched, forward_only<Bug::batched>("forward-only-batched"));
PARITY_REGISTER_SUBJECT(forward_only_strided, forward_only<Bug::strided>("forward-only-strided"));

parity::gen::RunResult run(const std::string& subject, const std::string& property) {
  return parity::gen::lora_family().run(subject, property, {.cases = 25, .write_reproducer = false});
}

TEST(LoraForwardOnly, BitwisePropertiesHoldOnTheForward) {
  for (const char* property : {"repeatable", "rows_independent", "layout_invariant"}) {
    const auto result = run("forward-only", property);
    EXPECT_EQ(result.not_applicable, "") << property;
    EXPECT_TRUE(result.passed) << result.message;
    EXPECT_GT(result.cases, 0) << property;
  }
}

TEST(LoraForwardOnly, EachBitwisePropertyCatchesItsForwardBug) {
  for (const auto& [subject, property] :
       {std::pair{"forward-only-second-call", "repeatable"}, std::pair{"forward-only-batched", "rows_independent"},
        std::pair{"forward-only-strided", "layout_invariant"}}) {
    const auto result = run(subject, property);
    EXPECT_FALSE(result.passed) << property << " on " << subject << ": " << result.message;
    ASSERT_TRUE(result.verdict.has_value()) << property << " on " << subject << ": " << result.message;
    EXPECT_NE(result.verdict->detail.find("y:"), std::string::npos) << result.verdict->detail;
  }
}

// By runs, and by replay (Family::check through guarded_verdict): not applicable, never run and
// never holding.
TEST(LoraForwardOnly, GradientPropertiesDoNotApply) {
  for (const char* property : {"base_frozen", "zero_adapter_gradients", "gradient_accuracy"}) {
    const auto result = run("forward-only", property);
    EXPECT_NE(result.not_applicable.find("capabilities.backward is false"), std::string::npos) << result.message;
    EXPECT_FALSE(result.passed) << property;
    EXPECT_EQ(result.cases, 0) << property;
    // NotApplicable, not another InputError: the runners (guarded_verdict) let it through
    // instead of reading it as the subject's `threw`, and the command exits 2.
    const auto check = [&](const parity::Case& c) {
      return parity::gen::lora_family().check("forward-only", property, c);
    };
    try {
      const parity::Verdict v = parity::gen::guarded_verdict(
          property, parity::Case{}, [](const parity::Case&) {}, check);
      ADD_FAILURE() << property << ": replay ran on a subject without backward: " << v.detail;
    } catch (const parity::NotApplicable& e) {
      EXPECT_NE(std::string(e.what()).find("capabilities.backward is false"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
