// A correct LoRA subject in another permitted evaluation order (error_bounds.hpp): plain float32
// in the order autograd takes, the scale applied first in the backward (dlow = s dy), no fma,
// the two parts of y and of dx finished apart and then added. It must pass every accuracy
// property, including at dy = bf16 max with s = 2, where s dy overflows float32 while the exact
// dB stays finite: its Inf is accepted there, and the elements are counted and named in the
// verdict. The same subject with dB off by 2^-10 must still fail, and so must parity's host twin
// with its finite dB off by 2^-10 at that very element: a finite value is checked wherever some
// order may overflow.
// A test subject only: it is not shipped as a kernel.
#include <gtest/gtest.h>

#include <string>

#include <parity/core/bf16.hpp>
#include <parity/properties/gen/lora_runs.hpp>
#include <parity/subjects/builtin/lora_host.hpp>

namespace {

using parity::DType;
using parity::Tensor;
using parity::subjects::LoraGradients;
using parity::subjects::LoraInputs;
using parity::subjects::LoraSubject;
using parity::subjects::LoraSubjectInfo;

float at(const Tensor& t, std::int64_t i) { return static_cast<float>(t.value_at(i)); }

// `skewed`: every dB element multiplied by 1 + 2^-10 (a wrong kernel, not a permitted order).
template <bool skewed>
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
    const std::vector<float> h = low_rank(in);
    std::vector<float> dlow(T * N), dh(T * R, 0.0f);
    for (std::int64_t i = 0; i < T * N; ++i) dlow[i] = in.scale * at(dy, i);
    LoraGradients g{Tensor::zeros(DType::bf16, {T, K}), Tensor::zeros(DType::f32, {R, K}),
                    Tensor::zeros(DType::f32, {N, R}), std::nullopt};
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t j = 0; j < R; ++j) {
        float acc = 0;
        for (std::int64_t t = 0; t < T; ++t) acc = acc + dlow[t * N + n] * h[t * R + j];
        if (skewed) acc = acc * (1.0f + 0x1p-10f);
        g.dB.set_value(n * R + j, static_cast<double>(acc));
      }
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
  // h = x A^T, k ascending.
  static std::vector<float> low_rank(const LoraInputs& in) {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), R = r(in);
    std::vector<float> h(T * R, 0.0f);
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < R; ++j)
        for (std::int64_t k = 0; k < K; ++k) h[t * R + j] = h[t * R + j] + at(in.x, t * K + k) * at(in.A, j * K + k);
    return h;
  }
};

template <bool skewed>
LoraSubjectInfo scale_first(const char* name) {
  return {.name = name,
          .backend = "host",
          .description = "plain float32, the scale first (lora_scale_first_test)",
          .make = [] { return std::make_unique<ScaleFirst<skewed>>(); }};
}

// parity's host twin with every dB element multiplied by 1 + 2^-10.
class SkewedTwin final : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override { return twin_->forward(in); }
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = twin_->backward(in, dy);
    for (std::int64_t i = 0; i < g.dB.numel(); ++i)
      g.dB.set_value(i, static_cast<double>(at(g.dB, i) * (1.0f + 0x1p-10f)));
    return g;
  }

 private:
  std::unique_ptr<LoraSubject> twin_ = parity::subjects::builtin::make_lora_host_twin();
};

PARITY_REGISTER_SUBJECT(scale_first, scale_first<false>("scale-first"));
PARITY_REGISTER_SUBJECT(scale_first_skewed, scale_first<true>("scale-first-skewed-dB"));
PARITY_REGISTER_SUBJECT(skewed_twin, (LoraSubjectInfo{.name = "host-twin-skewed-dB",
                                                      .backend = "host",
                                                      .description = "parity's host twin, dB off by 2^-10",
                                                      .make = [] { return std::make_unique<SkewedTwin>(); }}));

// The case: T = N = K = r = 1, s = alpha / r = 2, dy = bf16 max, x = 1, A = 1e-5: the
// exact dB = s dy x A = 6.8e33 is finite, s dy = 6.8e38 is not a float32.
parity::Case overflow_case() {
  parity::Case c;
  c.family = "lora";
  c.seed = 7;
  c.dims = {{"T", 1}, {"N", 1}, {"K", 1}, {"r", 1}};
  c.params["alpha"] = 2.0;
  c.patches = {{"dy", 0, 0x7f7f0000}, {"x", 0, 0x3f800000}, {"A", 0, parity::float_bits(1e-5f)}};
  return c;
}

TEST(LoraScaleFirst, AnInfWhereTheScaledGradientOverflowsIsAcceptedAndCounted) {
  const auto& family = parity::gen::lora_family();
  for (const char* property : {"gradient_accuracy", "zero_adapter_gradients"}) {
    const parity::Verdict v = family.check("scale-first", property, overflow_case());
    EXPECT_FALSE(v.fails()) << property << ": " << v.detail;
    EXPECT_NE(v.detail.find("s·dy reaches"), std::string::npos) << property << ": " << v.detail;
    EXPECT_NE(v.detail.find("overflows float32 in some permitted order"), std::string::npos)
        << property << ": " << v.detail;
  }
  const parity::Verdict g = family.check("scale-first", "gradient_accuracy", overflow_case());
  EXPECT_EQ(g.metrics.at("grad_b_may_overflow"), 1.0) << g.detail;
  EXPECT_EQ(g.metrics.at("grad_b_overflowed"), 1.0) << g.detail;  // scale first: s dy is Inf
}

TEST(LoraScaleFirst, AWrongFiniteValueWhereSomeOrderMayOverflowIsCaught) {
  const parity::Verdict v =
      parity::gen::lora_family().check("host-twin-skewed-dB", "gradient_accuracy", overflow_case());
  EXPECT_TRUE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("dB:"), std::string::npos) << v.detail;
  EXPECT_EQ(v.detail.find(" = inf"), std::string::npos) << "the twin's dB is finite: " << v.detail;
  EXPECT_EQ(v.detail.find(" = nan"), std::string::npos) << "the twin's dB is finite: " << v.detail;
}

// s = alpha near FLT_MAX and dy = bf16 max: s dy overflows float32 in every gradient element's
// permitted orders, and the scale-first subject's dx, dA, dB are all Inf or NaN: nothing is
// checked, a discard, never a pass. Its y (s on the finished low-rank sum, 3e33) is finite and is
// checked, though s x may overflow.
TEST(LoraScaleFirst, NothingCheckedIsADiscardAndAFiniteYIsChecked) {
  parity::Case c = overflow_case();
  c.params["alpha"] = 3e38;
  c.patches.push_back({"B", 0, parity::float_bits(1.0f)});
  const parity::Verdict g = parity::gen::lora_family().check("scale-first", "gradient_accuracy", c);
  EXPECT_EQ(g.outcome, parity::Outcome::discarded) << g.detail;
  EXPECT_NE(g.detail.find("nothing checked"), std::string::npos) << g.detail;
  const parity::Verdict y = parity::gen::lora_family().check("scale-first", "forward_accuracy", c);
  EXPECT_TRUE(y.holds()) << y.detail;
  EXPECT_EQ(y.metrics.at("may_overflow"), 1.0) << y.detail;
  EXPECT_EQ(y.metrics.at("overflowed"), 0.0) << y.detail;
}

TEST(LoraScaleFirst, AccuracyPropertiesHoldOnGeneratedCases) {
  for (const char* property : {"forward_accuracy", "gradient_accuracy", "zero_adapter_gradients"}) {
    const auto result =
        parity::gen::lora_family().run("scale-first", property, {.cases = 40, .write_reproducer = false});
    EXPECT_TRUE(result.passed) << property << ": " << result.message;
    EXPECT_GT(result.cases, 0) << property;
  }
}

TEST(LoraScaleFirst, AWrongDBIsStillCaught) {
  const auto result = parity::gen::lora_family().run("scale-first-skewed-dB", "gradient_accuracy",
                                                     {.cases = 40, .write_reproducer = false});
  EXPECT_FALSE(result.passed) << result.message;
  ASSERT_TRUE(result.verdict.has_value()) << result.message;
  EXPECT_NE(result.verdict->detail.find("dB:"), std::string::npos) << result.verdict->detail;
}

}  // namespace
