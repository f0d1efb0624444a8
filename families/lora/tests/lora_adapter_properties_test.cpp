// The LoRA family's own properties, base_frozen and zero_adapter_gradients (lora_properties.hpp),
// where they must not simply hold or fail:
//  - zero_adapter_gradients on a correct subject in another permitted evaluation order (plain
//    float32, the scale first in the backward: dlow = s dy, no fma) where some order may overflow
//    float32 while the exact dA stays 0: at dy = bf16 max with s = 2 (s dy overflows, the exact
//    dB stays finite), at A = 3e38 (the exact dB itself is past float32), at dy = 7.5e37, A = 3
//    (dB is, s dy is not) and at s dy = FLT_MAX exactly (no intermediate reaches past it): the
//    subject's Inf dB is accepted, not failed, and the verdict names the intermediate that
//    overflows, or none;
//  - zero_adapter_gradients on parity's host twin with a NaN dB where no order may overflow, and
//    with a dB or dA of the wrong shape or dtype: failed, naming it;
//  - both on a subject without backward (capabilities.backward = false): not applicable, never run
//    and never holding, by runs and by replay.
// Test subjects only: not shipped as kernels.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>
#include <parity/families/lora/lora_runs.hpp>
#include <parity/ops/lora_backward/tests/lora_backward_test_support.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/subjects/builtin/lora_host.hpp>

namespace {

using namespace parity::ops::lora_backward::testing;  // at, low_rank, ..., and the LoRA types

// The scale first, plain float32 (the file's comment).
class ScaleFirst final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0);
    const std::vector<float> h = low_rank(in);
    Tensor y = Tensor::zeros(DType::bf16, {T, N});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t n = 0; n < N; ++n) {
        float base = 0, low = 0;
        for (std::int64_t k = 0; k < K; ++k) base = base + at(in.x, t * K + k) * at(in.W, n * K + k);
        for (std::int64_t j = 0; j < r(in); ++j) low = low + h[t * r(in) + j] * at(in.B, n * r(in) + j);
        const float scaled = in.scale * low;
        y.set_value(t * N + n, static_cast<double>(base + scaled));
      }
    return y;
  }

  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), R = r(in);
    std::vector<float> dlow(T * N), dh(T * R, 0.0f);
    for (std::int64_t i = 0; i < T * N; ++i) dlow[i] = in.scale * at(dy, i);
    LoraGradients g = zero_gradients(in);
    set_dB_scaled_dy(g, in, dy, low_rank(in));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < R; ++j)
        for (std::int64_t n = 0; n < N; ++n) dh[t * R + j] = dh[t * R + j] + dlow[t * N + n] * at(in.B, n * R + j);
    for (std::int64_t j = 0; j < R; ++j)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0;
        for (std::int64_t t = 0; t < T; ++t) acc = acc + dh[t * R + j] * at(in.x, t * K + k);
        g.dA.set_value(j * K + k, static_cast<double>(acc));
      }
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k) {
        float base = 0, low = 0;
        for (std::int64_t n = 0; n < N; ++n) base = base + at(dy, t * N + n) * at(in.W, n * K + k);
        for (std::int64_t j = 0; j < R; ++j) low = low + dh[t * R + j] * at(in.A, j * K + k);
        g.dx.set_value(t * K + k, static_cast<double>(base + low));
      }
    return g;
  }

 private:
  static std::int64_t r(const LoraInputs& in) { return in.A.dim(0); }
};

// parity's host twin's forward; its backward throws (a subject registered without backward).
class ForwardOnly final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override { return twin_->forward(in); }
  LoraGradients backward(const LoraInputs&, const Tensor&) override {
    throw std::logic_error("backward called on a subject registered without backward");
  }

 private:
  std::unique_ptr<LoraSubject> twin_ = parity::subjects::builtin::make_lora_host_twin();
};

// parity's host twin with its gradients changed by `edit` (a wrong kernel).
template <void (*edit)(LoraGradients&)>
class EditedTwin final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override { return twin_->forward(in); }
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = twin_->backward(in, dy);
    edit(g);
    return g;
  }

 private:
  std::unique_ptr<LoraSubject> twin_ = parity::subjects::builtin::make_lora_host_twin();
};

void nan_dB(LoraGradients& g) { g.dB.set_value(0, std::numeric_limits<double>::quiet_NaN()); }
void oversized_dB(LoraGradients& g) { g.dB = Tensor::zeros(DType::f32, {g.dB.dim(0) + 1, g.dB.dim(1)}); }
void bf16_dA(LoraGradients& g) { g.dA = Tensor::zeros(DType::bf16, g.dA.shape()); }

template <void (*edit)(LoraGradients&)>
LoraSubjectInfo edited_twin(const char* name) {
  return {.name = name,
          .backend = "host",
          .description = "parity's host twin, its gradients changed (lora_adapter_properties_test)",
          .make = [] { return std::make_unique<EditedTwin<edit>>(); }};
}

PARITY_REGISTER_SUBJECT(twin_nan_dB, edited_twin<&nan_dB>("twin-nan-dB"));
PARITY_REGISTER_SUBJECT(twin_oversized_dB, edited_twin<&oversized_dB>("twin-oversized-dB"));
PARITY_REGISTER_SUBJECT(twin_bf16_dA, edited_twin<&bf16_dA>("twin-bf16-dA"));
PARITY_REGISTER_SUBJECT(scale_first,
                        (LoraSubjectInfo{.name = "scale-first",
                                         .backend = "host",
                                         .description = "plain float32, the scale first (lora_adapter_properties_test)",
                                         .make = [] { return std::make_unique<ScaleFirst>(); }}));
PARITY_REGISTER_SUBJECT(forward_only,
                        (LoraSubjectInfo{.name = "forward-only",
                                         .backend = "host",
                                         .description = "the host twin's forward only (lora_adapter_properties_test)",
                                         .capabilities = {.backward = false},
                                         .make = [] { return std::make_unique<ForwardOnly>(); }}));

// A LoRA case of these extents with alpha = `alpha` (s = alpha / r), seed 7, nothing patched.
parity::Case lora_case(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r, double alpha) {
  parity::Case c;
  c.family = "lora";
  c.seed = 7;
  c.dims = {{"T", T}, {"N", N}, {"K", K}, {"r", r}};
  c.params["alpha"] = alpha;
  return c;
}

// T = N = K = r = 1 with these dy, x and A (each as a cast to the operand's dtype rounds it).
parity::Case single_element_case(float dy, float x, float A, double alpha = 2.0) {
  parity::Case c = lora_case(1, 1, 1, 1, alpha);
  c.patches = {{"dy", 0, parity::float_bits(dy)}, {"x", 0, parity::float_bits(x)}, {"A", 0, parity::float_bits(A)}};
  return c;
}

// The case: s = 2, dy = bf16 max, x = 1, A = 1e-5: the exact dB = s dy x A = 6.8e33 is
// finite, s dy = 6.8e38 is not a float32.
parity::Case overflow_case() { return single_element_case(std::bit_cast<float>(0x7f7f0000u), 1.0f, 1e-5f); }

parity::Verdict zero_adapter_gradients(const char* subject, const parity::Case& c) {
  return parity::gen::lora_family().check(subject, "zero_adapter_gradients", c);
}

TEST(LoraAdapterProperties, ZeroAdapterGradientsAcceptsAnInfWhereTheScaledGradientOverflows) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", overflow_case());
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("s·dy reaches"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("overflows float32 in some permitted order"), std::string::npos) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
}

// T = N = K = r = 1, s = 2, dy = 1, x = 1 and A = 3e38: h = 3e38 is a float32, s h and the exact
// dB = 6e38 are not; no sum of more than one term is on the path.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesDBWhereTheExactDBIsBeyondFloat32) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", single_element_case(1.0f, 1.0f, 3e38f));
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("first dB[0, 0]: dB may reach 6"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("and overflow float32 in some permitted order"), std::string::npos) << v.detail;
  EXPECT_EQ(v.detail.find("sum on its path"), std::string::npos) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
}

// dy = 7.5e37, x = 1, A = 3, s = 2: s dy = 1.5e38 is a float32, the exact dB = 4.5e38 is not.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesDBNotAScaledOperandThatStaysFinite) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", single_element_case(7.5e37f, 1.0f, 3.0f));
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("first dB[0, 0]: dB may reach 4.5"), std::string::npos) << v.detail;
  EXPECT_EQ(v.detail.find("s·dy"), std::string::npos) << v.detail;
}

// dy = 2^127, s = 2 - 2^-23: s dy = FLT_MAX exactly, which Bounded marks as may overflow while
// neither it nor any intermediate reaches past FLT_MAX: the cause is not named.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesNoIntermediateThatCannotOverflow) {
  const parity::Case c = single_element_case(0x1p127f, 1.0f, 1e-5f, static_cast<double>(std::nextafter(2.0f, 0.0f)));
  const parity::Verdict v = zero_adapter_gradients("scale-first", c);
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
  EXPECT_NE(v.detail.find("first dB[0, 0]: an intermediate on its path may overflow float32"), std::string::npos)
      << v.detail;
  EXPECT_EQ(v.detail.find("reach"), std::string::npos) << v.detail;
}

// A small case where no order may overflow.
parity::Case plain_case() { return lora_case(3, 4, 5, 2, 4.0); }

TEST(LoraAdapterProperties, ZeroAdapterGradientsFailsANaNDBWhereNoOrderMayOverflow) {
  const parity::Verdict ok = zero_adapter_gradients("scale-first", plain_case());
  ASSERT_TRUE(ok.holds()) << ok.detail;
  EXPECT_EQ(ok.metrics.at("grad_b_may_overflow"), 0.0) << ok.detail;
  const parity::Verdict v = zero_adapter_gradients("twin-nan-dB", plain_case());
  EXPECT_TRUE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("dB[0, 0] = nan where no permitted order may overflow"), std::string::npos) << v.detail;
}

// An output of another shape or dtype is failed before any element is read.
TEST(LoraAdapterProperties, ZeroAdapterGradientsFailsAnOutputOfTheWrongShapeOrDtype) {
  const parity::Verdict big = zero_adapter_gradients("twin-oversized-dB", plain_case());
  EXPECT_TRUE(big.fails()) << big.detail;
  EXPECT_NE(big.detail.find("invalid output: dB is [5, 2] where [4, 2] is expected"), std::string::npos) << big.detail;
  const parity::Verdict bf16 = zero_adapter_gradients("twin-bf16-dA", plain_case());
  EXPECT_TRUE(bf16.fails()) << bf16.detail;
  EXPECT_NE(bf16.detail.find("invalid output: dA is bf16, not f32"), std::string::npos) << bf16.detail;
}

// By runs, and by replay (Family::check through guarded_verdict): not applicable, never run and
// never holding.
TEST(LoraAdapterProperties, BaseFrozenAndZeroAdapterGradientsDoNotApplyWithoutBackward) {
  for (const char* property : {"base_frozen", "zero_adapter_gradients"}) {
    const auto result =
        parity::gen::lora_family().run("forward-only", property, {.cases = 25, .write_reproducer = false});
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
