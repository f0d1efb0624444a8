#include <parity/properties/transition/formula_reference.hpp>

#include <cmath>
#include <numbers>

namespace parity::properties::transition {
namespace {

using subjects::StepType;
using subjects::TransitionInputs;

// One float32 operation, correctly rounded (see the header for why through double).
float rounded(double exact_or_innocuous) { return static_cast<float>(exact_or_innocuous); }
float add(float a, float b) { return rounded(double(a) + double(b)); }
float sub(float a, float b) { return rounded(double(a) - double(b)); }
float mul(float a, float b) { return rounded(double(a) * double(b)); }
float div(float a, float b) { return rounded(double(a) / double(b)); }
float root(float a) { return rounded(std::sqrt(double(a))); }
float log_of(float a) { return rounded(std::log(double(a))); }

// The per-row quantities of the formula, as Python names them.
struct RowTerms {
  float std_dev_t = 0, dt = 0, noise = 0;  // noise: std_dev_t * sqrt(-1 * dt) (sde), std_dev_t (cps)
  float sigma = 0, sigma_prev = 0;
};

RowTerms row_terms(const TransitionInputs& in, std::size_t b) {
  RowTerms r;
  r.sigma = in.sigma[b];
  r.sigma_prev = in.sigma_prev[b];
  r.dt = sub(r.sigma_prev, r.sigma);
  if (in.type == StepType::cps) {
    // std_dev_t = sigma_prev * math.sin(noise_level * math.pi / 2): the sine in double.
    r.std_dev_t = mul(r.sigma_prev, rounded(std::sin(in.noise_level * std::numbers::pi / 2.0)));
    r.noise = r.std_dev_t;
    return r;
  }
  // std_dev_t = sqrt(sigma / (1 - where(sigma == 1, sigma_max, sigma))) * noise_level
  const float s1 = r.sigma == 1.0f ? in.sigma_max : r.sigma;
  r.std_dev_t = mul(root(div(r.sigma, sub(1.0f, s1))), rounded(in.noise_level));
  r.noise = mul(r.std_dev_t, root(mul(-1.0f, r.dt)));
  return r;
}

float mean_of(const TransitionInputs& in, const RowTerms& r, float x, float v) {
  if (in.type == StepType::cps) {
    // x0 = x - sigma * v;  x1 = x + v * (1 - sigma)
    // mean = x0 * (1 - sigma_prev) + x1 * sqrt(sigma_prev**2 - std_dev_t**2)
    const float x0 = sub(x, mul(r.sigma, v));
    const float x1 = add(x, mul(v, sub(1.0f, r.sigma)));
    const float keep = sub(1.0f, r.sigma_prev);
    const float rt = root(sub(mul(r.sigma_prev, r.sigma_prev), mul(r.std_dev_t, r.std_dev_t)));
    return add(mul(x0, keep), mul(x1, rt));
  }
  // mean = sample * (1 + std_dev_t**2 / (2 * sigma) * dt)
  //      + model_output * (1 + std_dev_t**2 * (1 - sigma) / (2 * sigma)) * dt
  const float std2 = mul(r.std_dev_t, r.std_dev_t);
  const float two_sigma = mul(2.0f, r.sigma);
  const float cx = add(1.0f, mul(div(std2, two_sigma), r.dt));
  const float cv = add(1.0f, div(mul(std2, sub(1.0f, r.sigma)), two_sigma));
  return add(mul(x, cx), mul(mul(v, cv), r.dt));
}

float logp_term(const TransitionInputs& in, const RowTerms& r, float prev, float mean, Formulation f) {
  const float d = sub(prev, mean);
  const float neg_d2 = -mul(d, d);
  if (in.type == StepType::cps) return neg_d2;
  float lp = div(neg_d2, mul(mul(r.noise, r.noise), 2.0f));
  if (!in.normaliser) return lp;
  lp = sub(lp, log_of(r.noise));
  if (f == Formulation::second) return sub(lp, rounded(0.5 * std::log(2.0 * std::numbers::pi)));
  const float pi = rounded(std::numbers::pi);  // torch.as_tensor(math.pi): float32
  return sub(lp, log_of(root(mul(pi, 2.0f))));
}

}  // namespace

subjects::TransitionOutputs formula_sample(const TransitionInputs& in, Formulation f) {
  subjects::validate_transition_inputs(in);
  const std::int64_t B = in.x.dim(0), n = in.x.dim(1);
  subjects::TransitionOutputs out{Tensor::zeros(DType::f32, {B, n}), Tensor::zeros(DType::f32, {B, n}),
                                  Tensor::zeros(DType::f32, {B}), Tensor::zeros(DType::f32, {B})};
  for (std::int64_t b = 0; b < B; ++b) {
    const RowTerms r = row_terms(in, static_cast<std::size_t>(b));
    out.std.set_value(b, r.std_dev_t);
    float total = 0.0f;
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t i = b * n + j;
      const float x = static_cast<float>(in.x.value_at(i)), v = static_cast<float>(in.v.value_at(i));
      const float mean = mean_of(in, r, x, v);
      const float prev = add(mean, mul(r.noise, static_cast<float>(in.eps.value_at(i))));
      out.mean.set_value(i, mean);
      out.prev.set_value(i, prev);
      total = add(total, logp_term(in, r, prev, mean, f));
    }
    out.logp.set_value(b, div(total, static_cast<float>(n)));
  }
  return out;
}

}  // namespace parity::properties::transition
