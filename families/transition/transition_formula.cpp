#include <parity/families/transition/transition_formula.hpp>

#include <cmath>
#include <numbers>

#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::transition {
namespace {

// The call's settings, as the formula reads them.
struct Settings {
  bool cps = false, normaliser = true;
  float sigma_max = 0;
  double noise_level = 0;
};

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

RowTerms row_terms(const Settings& in, float sigma, float sigma_prev) {
  RowTerms r;
  r.sigma = sigma;
  r.sigma_prev = sigma_prev;
  r.dt = sub(r.sigma_prev, r.sigma);
  if (in.cps) {
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

float mean_of(const Settings& in, const RowTerms& r, float x, float v) {
  if (in.cps) {
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

float logp_term(const Settings& in, const RowTerms& r, float prev, float mean, Formulation f) {
  const float d = sub(prev, mean);
  const float neg_d2 = -mul(d, d);
  if (in.cps) return neg_d2;
  float lp = div(neg_d2, mul(mul(r.noise, r.noise), 2.0f));
  if (!in.normaliser) return lp;
  lp = sub(lp, log_of(r.noise));
  if (f == Formulation::second) return sub(lp, rounded(0.5 * std::log(2.0 * std::numbers::pi)));
  const float pi = rounded(std::numbers::pi);  // torch.as_tensor(math.pi): float32
  return sub(lp, log_of(root(mul(pi, 2.0f))));
}

}  // namespace

ops::OpOutputs formula_sample(const RowCall& row_call, Formulation f) {
  const ops::OpCall& call = row_call.call;
  const Settings in{.cps = call.param("type") != 0,
                    .normaliser = call.param("normaliser") != 0,
                    .sigma_max = static_cast<float>(call.param("sigma_max")),
                    .noise_level = call.param("noise_level")};
  const Tensor &x_in = call.input("x"), &v_in = call.input("v"), &eps = call.input("eps"), &sigma = call.input("sigma");
  const std::int64_t B = call.extent("B"), n = call.extent("n");
  ops::OpOutputs out = {{"prev", Tensor::zeros(DType::f32, {B, n})},
                        {"mean", Tensor::zeros(DType::f32, {B, n})},
                        {"std", Tensor::zeros(DType::f32, {B})},
                        {"logp", Tensor::zeros(DType::f32, {B})}};
  for (std::int64_t b = 0; b < B; ++b) {
    const float sigma_b = static_cast<float>(sigma.value_at(b));
    const RowTerms r =
        row_terms(in, sigma_b,
                  ops::transition_step::sigma_prev_of(sigma.value_at(b), row_call.steps[static_cast<std::size_t>(b)]));
    out.at("std").set_value(b, r.std_dev_t);
    float total = 0.0f;
    for (std::int64_t j = 0; j < n; ++j) {
      const float x = static_cast<float>(x_in.value_at(b * n + j)), v = static_cast<float>(v_in.value_at(b * n + j));
      const float mean = mean_of(in, r, x, v);
      const float prev = add(mean, mul(r.noise, static_cast<float>(eps.value_at(b * n + j))));
      out.at("mean").set_value(b * n + j, mean);
      out.at("prev").set_value(b * n + j, prev);
      total = add(total, logp_term(in, r, prev, mean, f));
    }
    out.at("logp").set_value(b, div(total, static_cast<float>(n)));
  }
  return out;
}

}  // namespace parity::transition
