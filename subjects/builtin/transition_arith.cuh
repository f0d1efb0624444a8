#pragma once
// The arithmetic of parity's deterministic transition kernel (the flow-matching SDE step with
// its log-prob), shared bit for bit by the CUDA kernel (transition.cu) and its host twin
// (transition_host.cpp).
//
// Elementwise, everything follows the LibTorch formula of Flow-GRPO's sde_step_with_logprob
// operation for operation, each rounded once in float32, so prev_sample and the mean match
// it bitwise (see subjects/transition_family.hpp for the formulas):
//   per row  sde: s1 = sigma == 1 ? sigma_max : sigma;  std = sqrt(sigma / (1 - s1)) * a
//                 dt = sigma_prev - sigma;  std2 = std * std;  two_sigma = 2 * sigma
//                 cx = 1 + (std2 / two_sigma) * dt;  cv = 1 + (std2 * (1 - sigma)) / two_sigma
//                 noise = std * sqrt(-dt)
//   element  sde: mean = x * cx + (v * cv) * dt;   prev = mean + noise * eps
//   per row  cps: std = sigma_prev * sin_a;  keep = 1 - sigma_prev;  one_minus = 1 - sigma
//                 root = sqrt(sigma_prev * sigma_prev - std * std);  noise = std
//   element  cps: x0 = x - sigma * v;  x1 = x + v * one_minus;  mean = x0 * keep + x1 * root
//   log-prob term: d = prev - mean;  sde: ((-(d * d)) / (2 * (noise * noise)) - L) - C
//                  with L = log(noise), C = log(sqrt(2 pi)) (the normaliser, optional);
//                  cps: -(d * d)
// The row's log-prob is the mean of its n terms, reduced in a fixed order that depends on n
// alone (never on B, the grid or the device): lane l of 256 sums terms l, l + 256, ... in
// ascending order; the 256 lane sums are then added pairwise in a fixed tree (stride 128,
// 64, ..., 1); the total is divided by n. L and C use parity's own log (core/detmath.hpp),
// never a libm, so the kernel and its twin agree.
#include <cstdint>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>

namespace parity::subjects::builtin::transition {

inline constexpr int kLanes = 256;

struct Row {
  float std = 0, dt = 0;
  float cx = 0, cv = 0;                                // sde
  float sigma = 0, keep = 0, one_minus = 0, root = 0;  // cps
  float noise = 0;                                     // the std of prev around mean
  float two_var = 0;                                   // 2 * noise^2
  float log_noise = 0, log_norm = 0;                   // L, C
  bool cps = false, normaliser = true;
};

PARITY_HD float step_dt(float sigma, float sigma_prev) { return sigma_prev - sigma; }

// The row's sde coefficients for a given dt (step_dt for the kernel; a probe may pass another).
// Sets the std of prev around mean and the log-prob quantities that follow from it.
PARITY_HD void set_noise(Row& r, float noise) {
  r.noise = noise;
  r.two_var = 2.0f * (noise * noise);
  r.log_noise = detmath::log_f32(noise);
  const float two_pi = 2.0f * 3.14159265358979323846f;
  r.log_norm = detmath::log_f32(sqrtf(two_pi));
}

PARITY_HD Row sde_row(float sigma, float dt, float sigma_max, float a, bool normaliser) {
  Row r;
  const float s1 = sigma == 1.0f ? sigma_max : sigma;
  r.std = sqrtf(sigma / (1.0f - s1)) * a;
  r.dt = dt;
  const float std2 = r.std * r.std;
  const float two_sigma = 2.0f * sigma;
  r.cx = 1.0f + (std2 / two_sigma) * r.dt;
  r.cv = 1.0f + (std2 * (1.0f - sigma)) / two_sigma;
  r.normaliser = normaliser;
  set_noise(r, r.std * sqrtf(-1.0f * r.dt));
  return r;
}

// `sin_a` = float(sin(a pi / 2)), computed once on the host (cps_sin_factor).
PARITY_HD Row cps_row(float sigma, float sigma_prev, float sin_a) {
  Row r;
  r.cps = true;
  r.sigma = sigma;
  r.std = sigma_prev * sin_a;
  r.dt = sigma_prev - sigma;
  r.keep = 1.0f - sigma_prev;
  r.one_minus = 1.0f - sigma;
  r.root = sqrtf(sigma_prev * sigma_prev - r.std * r.std);
  set_noise(r, r.std);
  return r;
}

PARITY_HD float mean_element(const Row& r, float x, float v) {
  if (r.cps) {
    const float x0 = x - r.sigma * v;
    const float x1 = x + v * r.one_minus;
    return x0 * r.keep + x1 * r.root;
  }
  return x * r.cx + (v * r.cv) * r.dt;
}

PARITY_HD float prev_element(const Row& r, float mean, float eps) { return mean + r.noise * eps; }

PARITY_HD float logp_term(const Row& r, float prev, float mean) {
  const float d = prev - mean;
  const float q = -(d * d);
  if (r.cps) return q;
  const float t = q / r.two_var;
  return r.normaliser ? (t - r.log_noise) - r.log_norm : t;
}

// Folds lane sums: after the call, lanes[0] holds the fixed-tree total of lanes[0..count),
// count a power of two (kLanes for the kernel).
PARITY_HD void fold_lanes(float* lanes, int count) {
  for (int stride = count / 2; stride >= 1; stride /= 2)
    for (int l = 0; l < stride; ++l) lanes[l] = lanes[l] + lanes[l + stride];
}

PARITY_HD float row_mean(float total, std::int64_t n) { return total / static_cast<float>(n); }

}  // namespace parity::subjects::builtin::transition
