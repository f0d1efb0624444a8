// The LoRA family's own properties, base_frozen and zero_adapter_gradients (lora_properties.hpp),
// where they must not simply hold or fail:
//  - zero_adapter_gradients on a correct subject in another permitted evaluation order (plain
//    float32, the scale first in the backward: dlow = s dy, no fma) at dy = bf16 max with s = 2,
//    where s dy overflows float32 while the exact dB stays finite: the subject's Inf dB is accepted,
//    not failed, and the verdict names the cause;
//  - both on a subject without backward (capabilities.backward = false): not applicable, never run
//    and never holding, by runs and by replay.
// Test subjects only: not shipped as kernels.
#include <gtest/gtest.h>

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

TEST(LoraAdapterProperties, ZeroAdapterGradientsAcceptsAnInfWhereTheScaledGradientOverflows) {
  const parity::Verdict v = parity::gen::lora_family().check("scale-first", "zero_adapter_gradients", overflow_case());
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("s·dy reaches"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("overflows float32 in some permitted order"), std::string::npos) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
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
