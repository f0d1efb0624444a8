// The LibTorch transition subjects (Flow-GRPO's sde_step_with_logprob) against a direct
// float64 evaluation of docs/math.md, "Flow-matching SDE step": accuracy of mean,
// prev and logp for sde and cps, the float32 operation order of std, mean and prev, scoring
// reproducing sampling, the second formulation, the normaliser switch, the operands ATen gets
// from a strided case, and input validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/subjects/torch/transition_torch.hpp>

namespace parity::subjects::torch_impl {
namespace {

constexpr std::int64_t kB = 4;
constexpr std::int64_t kN = 300;  // not a multiple of any vector width

// Philox normals times `gain`, rounded to the dtype: every bit depends only on the seed.
Tensor filled(DType dtype, std::int64_t rows, std::int64_t cols, std::uint32_t stream, double gain) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  for (std::int64_t i = 0; i < t.numel(); ++i)
    t.set_value(i, gain * philox_normal(2025, stream, static_cast<std::uint64_t>(i)));
  return t;
}

// Row 0 has sigma == 1, so the sde std takes sigma_max (sigmas[1] of the schedule).
TransitionInputs make_inputs(StepType type, DType dtype = DType::f32, bool normaliser = true) {
  TransitionInputs in;
  in.x = filled(dtype, kB, kN, 0, 1.0);
  in.v = filled(dtype, kB, kN, 1, 1.0);
  in.eps = filled(DType::f32, kB, kN, 2, 1.0);
  in.sigma = {1.0f, 0.8f, 0.5f, 0.2f};
  in.sigma_prev = {0.96f, 0.75f, 0.45f, 0.1f};
  in.sigma_max = 0.97f;
  in.noise_level = 0.7;
  in.type = type;
  in.normaliser = normaliser;
  return in;
}

// The formulas of transition_family.hpp in float64, from the inputs' values.
struct Reference {
  std::vector<double> mean, prev, std, noise;  // noise: the std of prev around mean, per row
};

Reference reference(const TransitionInputs& in) {
  const std::vector<double> x = in.x.values(), v = in.v.values(), eps = in.eps.values();
  const double a = in.noise_level;
  Reference r;
  for (std::int64_t b = 0; b < kB; ++b) {
    const double s = in.sigma[b], sp = in.sigma_prev[b];
    double std_b = 0, noise = 0;
    for (std::int64_t j = 0; j < kN; ++j) {
      const std::int64_t i = b * kN + j;
      double mean = 0;
      if (in.type == StepType::sde) {
        const double s1 = s == 1.0 ? static_cast<double>(in.sigma_max) : s;
        std_b = std::sqrt(s / (1 - s1)) * a;
        const double dt = sp - s;
        mean = x[i] * (1 + std_b * std_b / (2 * s) * dt) + v[i] * (1 + std_b * std_b * (1 - s) / (2 * s)) * dt;
        noise = std_b * std::sqrt(-dt);
      } else {
        std_b = sp * std::sin(a * std::numbers::pi / 2);
        mean = (x[i] - s * v[i]) * (1 - sp) + (x[i] + v[i] * (1 - s)) * std::sqrt(sp * sp - std_b * std_b);
        noise = std_b;
      }
      r.mean.push_back(mean);
      r.prev.push_back(mean + noise * eps[i]);
    }
    r.std.push_back(std_b);
    r.noise.push_back(noise);
  }
  return r;
}

double log_norm() { return std::log(std::sqrt(2 * std::numbers::pi)); }

// Row log-probs of `prev` around the reference mean, and each row's mean |term| (the scale
// the relative check divides by, so that a row whose terms cancel near 0 is not a problem).
struct RefLogp {
  std::vector<double> logp, scale;
};

RefLogp reference_logp(const TransitionInputs& in, const Reference& r, const std::vector<double>& prev) {
  RefLogp out;
  for (std::int64_t b = 0; b < kB; ++b) {
    double sum = 0, abs_sum = 0;
    for (std::int64_t j = 0; j < kN; ++j) {
      const std::int64_t i = b * kN + j;
      const double d = prev[i] - r.mean[i];
      double term = -(d * d);
      if (in.type == StepType::sde) {
        term /= 2 * r.noise[b] * r.noise[b];
        if (in.normaliser) term = term - std::log(r.noise[b]) - log_norm();
      }
      sum += term;
      abs_sum += std::abs(term);
    }
    out.logp.push_back(sum / kN);
    out.scale.push_back(abs_sum / kN);
  }
  return out;
}

double normwise(const Tensor& got, const std::vector<double>& ref) {
  const std::vector<double> values = got.values();
  EXPECT_EQ(values.size(), ref.size());
  const ValueDiff d = compare_values(values, ref);
  EXPECT_EQ(d.nonfinite_mismatch, 0);
  return d.normwise_rel;
}

void expect_logp_close(const Tensor& logp, const RefLogp& ref, double tol) {
  ASSERT_EQ(logp.shape(), (std::vector<std::int64_t>{kB}));
  for (std::int64_t b = 0; b < kB; ++b) {
    const double got = logp.value_at(b);
    EXPECT_LE(std::abs(got - ref.logp[b]), tol * std::max(std::abs(ref.logp[b]), ref.scale[b]))
        << "row " << b << ": " << got << " vs " << ref.logp[b];
  }
}

void expect_bitwise(const Tensor& a, const Tensor& b, const std::string& what) {
  const BitwiseDiff d = compare_bitwise(a, b);
  EXPECT_TRUE(d.equal()) << what << ": " << d.describe(a.shape());
}

using Factory = std::unique_ptr<TransitionSubject> (*)(bool);

struct Formulation {
  const char* name;
  Factory make;
};

const Formulation kFormulations[] = {{"torch", make_transition_torch}, {"torch-second", make_transition_torch_second}};

class TransitionTorch : public ::testing::TestWithParam<Formulation> {};

INSTANTIATE_TEST_SUITE_P(Formulations, TransitionTorch, ::testing::ValuesIn(kFormulations),
                         [](const auto& info) { return std::string(info.param.name) == "torch" ? "First" : "Second"; });

// mean and prev within 1e-5 (normwise), logp within 1e-4 (per row), std as the formula.
TEST_P(TransitionTorch, MatchesFloat64) {
  for (StepType type : {StepType::sde, StepType::cps}) {
    for (DType dtype : {DType::f32, DType::bf16}) {
      SCOPED_TRACE(std::string(type == StepType::sde ? "sde" : "cps") + (dtype == DType::f32 ? " f32" : " bf16"));
      const TransitionInputs in = make_inputs(type, dtype);
      const Reference ref = reference(in);
      const TransitionOutputs out = GetParam().make(false)->sample(in);
      ASSERT_EQ(out.prev.shape(), in.x.shape());
      ASSERT_EQ(out.mean.shape(), in.x.shape());
      ASSERT_EQ(out.std.shape(), (std::vector<std::int64_t>{kB}));
      EXPECT_EQ(out.prev.dtype(), DType::f32);
      EXPECT_LE(normwise(out.mean, ref.mean), 1e-5);
      EXPECT_LE(normwise(out.prev, ref.prev), 1e-5);
      EXPECT_LE(normwise(out.std, ref.std), 1e-6);
      expect_logp_close(out.logp, reference_logp(in, ref, ref.prev), 1e-4);
      // Scoring the subject's own prev: the reference log-prob of those exact values.
      expect_logp_close(GetParam().make(false)->score(in, out.prev), reference_logp(in, ref, out.prev.values()), 1e-4);
    }
  }
}

// std, mean and prev in float32, in the operation order of the Python formula (which
// transition_arith.cuh documents): each operation rounded once, the Python floats noise_level
// and sin(a pi / 2) rounded to float32 before their multiply, as PyTorch casts a Scalar.
TEST_P(TransitionTorch, Float32OperationOrder) {
  for (StepType type : {StepType::sde, StepType::cps}) {
    SCOPED_TRACE(type == StepType::sde ? "sde" : "cps");
    const TransitionInputs in = make_inputs(type);
    const TransitionOutputs out = GetParam().make(false)->sample(in);
    Tensor mean = Tensor::zeros(DType::f32, {kB, kN}), prev = mean, std = Tensor::zeros(DType::f32, {kB});
    const std::vector<double> x = in.x.values(), v = in.v.values(), eps = in.eps.values();
    for (std::int64_t b = 0; b < kB; ++b) {
      const float s = in.sigma[b], sp = in.sigma_prev[b];
      float std_b, noise;
      float cx = 0, cv = 0, dt = 0, keep = 0, one_minus = 0, root = 0;
      if (type == StepType::sde) {
        const float s1 = s == 1.0f ? in.sigma_max : s;
        std_b = std::sqrt(s / (1.0f - s1)) * static_cast<float>(in.noise_level);
        dt = sp - s;
        const float std2 = std_b * std_b, two_sigma = 2.0f * s;
        cx = 1.0f + (std2 / two_sigma) * dt;
        cv = 1.0f + (std2 * (1.0f - s)) / two_sigma;
        noise = std_b * std::sqrt(-1.0f * dt);
      } else {
        std_b = sp * static_cast<float>(std::sin(in.noise_level * std::numbers::pi / 2));
        keep = 1.0f - sp;
        one_minus = 1.0f - s;
        root = std::sqrt(sp * sp - std_b * std_b);
        noise = std_b;
      }
      std.set_value(b, std_b);
      for (std::int64_t j = 0; j < kN; ++j) {
        const std::int64_t i = b * kN + j;
        const float xi = static_cast<float>(x[i]), vi = static_cast<float>(v[i]);
        const float m =
            type == StepType::sde ? xi * cx + (vi * cv) * dt : (xi - s * vi) * keep + (xi + vi * one_minus) * root;
        mean.set_value(i, m);
        prev.set_value(i, m + noise * static_cast<float>(eps[i]));
      }
    }
    expect_bitwise(out.std, std, "std");
    expect_bitwise(out.mean, mean, "mean");
    expect_bitwise(out.prev, prev, "prev");
  }
}

// Scoring the sampled prev gives the sampled log-prob, bit for bit.
TEST_P(TransitionTorch, ScoreReproducesSampleBitwise) {
  for (StepType type : {StepType::sde, StepType::cps}) {
    for (bool normaliser : {true, false}) {
      for (DType dtype : {DType::f32, DType::bf16}) {
        const TransitionInputs in = make_inputs(type, dtype, normaliser);
        const auto subject = GetParam().make(false);
        const TransitionOutputs out = subject->sample(in);
        expect_bitwise(subject->score(in, out.prev), out.logp, "score vs sample logp");
      }
    }
  }
}

// normaliser == false drops exactly -log(std sqrt(-dt)) - log(sqrt(2 pi)) per row (sde);
// cps has no normaliser, so the switch changes nothing.
TEST_P(TransitionTorch, NormaliserOffDropsTheLogTerms) {
  const TransitionInputs on = make_inputs(StepType::sde, DType::f32, true);
  const TransitionInputs off = make_inputs(StepType::sde, DType::f32, false);
  const Reference ref = reference(on);
  const auto subject = GetParam().make(false);
  const TransitionOutputs out_on = subject->sample(on), out_off = subject->sample(off);
  expect_bitwise(out_on.prev, out_off.prev, "prev");
  for (std::int64_t b = 0; b < kB; ++b) {
    const double dropped = -std::log(ref.noise[b]) - log_norm();
    const double diff = out_on.logp.value_at(b) - out_off.logp.value_at(b);
    EXPECT_NEAR(diff, dropped, 1e-5 * (1 + std::abs(dropped) + std::abs(out_off.logp.value_at(b)))) << "row " << b;
  }
  const TransitionInputs cps_on = make_inputs(StepType::cps, DType::f32, true);
  const TransitionInputs cps_off = make_inputs(StepType::cps, DType::f32, false);
  expect_bitwise(subject->sample(cps_on).logp, subject->sample(cps_off).logp, "cps logp");
}

// What parity controls of the subjects' layouts: the operands they hand ATen (x, v and eps of
// sample, prev of score) are float32, contiguous, with the bits of the same case without layouts,
// whatever layouts the case gives. Whether ATen's results then depend on the layouts is ATen's
// behaviour: a finding, reported with a reproducer and asserted nowhere.
TEST(TransitionTorchOperands, AStridedCaseReachesATenContiguousWithTheSameBits) {
  for (const DType dtype : {DType::f32, DType::bf16}) {
    const TransitionInputs in = make_inputs(StepType::sde, dtype);
    const Tensor prev = filled(DType::f32, kB, kN, 7, 1.0);
    TransitionInputs strided = in;
    strided.x = Layout{true, 3, 5}.place(in.x);
    strided.v = Layout{false, 2, 1}.place(in.v);
    strided.eps = Layout{true, 0, 7}.place(in.eps);
    const Tensor strided_prev = Layout{true, 1, 2}.place(prev);
    for (const Tensor* t : std::initializer_list<const Tensor*>{&strided.x, &strided.v, &strided.eps, &strided_prev})
      ASSERT_FALSE(t->is_contiguous());  // else the test would show nothing
    const auto plain = transition_torch_operands(in, prev), placed = transition_torch_operands(strided, strided_prev);
    ASSERT_EQ(plain.size(), 4u);
    ASSERT_EQ(placed.size(), plain.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
      const std::string what = plain[i].first + " (" + std::string(dtype_name(dtype)) + ")";
      EXPECT_EQ(placed[i].first, plain[i].first);
      EXPECT_TRUE(placed[i].second.contiguous) << what << ": ATen holds it strided";
      EXPECT_EQ(placed[i].second.values.dtype(), DType::f32) << what;
      expect_bitwise(placed[i].second.values, plain[i].second.values, what);
    }
    // The values are the operands' own, upcast exactly.
    for (std::int64_t i = 0; i < in.x.numel(); ++i)
      ASSERT_EQ(placed[0].second.values.value_at(i), in.x.value_at(i)) << "x element " << i;
  }
}

TEST_P(TransitionTorch, BadShapesThrowInputError) {
  const auto subject = GetParam().make(false);
  const TransitionInputs good = make_inputs(StepType::sde);
  {
    TransitionInputs in = good;
    in.x = Tensor::zeros(DType::f32, {kB * kN});
    EXPECT_THROW(subject->sample(in), InputError);
  }
  {
    TransitionInputs in = good;
    in.v = filled(DType::f32, kB, kN + 1, 1, 1.0);
    EXPECT_THROW(subject->sample(in), InputError);
  }
  {
    TransitionInputs in = good;
    in.eps = filled(DType::bf16, kB, kN, 2, 1.0);
    EXPECT_THROW(subject->sample(in), InputError);
  }
  {
    TransitionInputs in = good;
    in.sigma.pop_back();
    EXPECT_THROW(subject->sample(in), InputError);
    EXPECT_THROW(subject->score(in, good.eps), InputError);
  }
  {
    TransitionInputs in = good;
    in.sigma_prev.push_back(0.0f);
    EXPECT_THROW(subject->sample(in), InputError);
  }
  EXPECT_THROW(subject->score(good, filled(DType::f32, kB + 1, kN, 3, 1.0)), InputError);
  EXPECT_THROW(subject->score(good, filled(DType::bf16, kB, kN, 3, 1.0)), InputError);
}

// The second formulation shares the mean expression: mean, prev and std agree bitwise with
// the first; the log-prob differs at most in the normalising constant's rounding.
TEST(TransitionTorchSecond, SharesTheMeanBitwise) {
  for (StepType type : {StepType::sde, StepType::cps}) {
    for (bool normaliser : {true, false}) {
      const TransitionInputs in = make_inputs(type, DType::bf16, normaliser);
      const TransitionOutputs a = make_transition_torch(false)->sample(in);
      const TransitionOutputs b = make_transition_torch_second(false)->sample(in);
      expect_bitwise(a.mean, b.mean, "mean");
      expect_bitwise(a.prev, b.prev, "prev");
      expect_bitwise(a.std, b.std, "std");
      for (std::int64_t i = 0; i < kB; ++i)
        EXPECT_NEAR(a.logp.value_at(i), b.logp.value_at(i), 1e-6 * (1 + std::abs(a.logp.value_at(i))));
      if (type == StepType::cps || !normaliser) expect_bitwise(a.logp, b.logp, "logp");
    }
  }
}

TEST(TransitionTorchAvailability, CudaNeverFallsBack) {
  EXPECT_EQ(transition_torch_unavailable_reason(false), "");
  if (transition_torch_unavailable_reason(true).empty()) {
    GTEST_SKIP() << "a CUDA device is present";
  }
  EXPECT_THROW(make_transition_torch(true), InputError);
  EXPECT_THROW(make_transition_torch_second(true), InputError);
}

}  // namespace
}  // namespace parity::subjects::torch_impl
