#pragma once
// The arithmetic of the DiT rows, shared bit for bit by the CUDA kernels (model.cu) and their
// host twins (model_rows.cpp). All in float32; every chain starts at 0.0f
// and adds one fma per term (mac), in the ascending order given here:
//
//   rms_norm   r = 1 / sqrt(chain_c x_c x_c / C + eps);   y_c = (x_c r) w_c
//              dx_c = r (g_c - xh_c mu), g_c = dy_c w_c, xh_c = x_c r, mu = chain_c g_c xh_c / C
//   rope       o0 = x0 c - x1 s ; o1 = x1 c + x0 s        (backward: the same with -s)
//   swiglu     the gate's backward: da = (du g) silu'(a), dg = du silu(a),
//              silu(a) = a / (1 + exp_f32(-a)) (the forward gate is the op swiglu's kernel)
//
// Every order is a function of the reduction's own length only, never of the number of rows,
// the thread count or a launch configuration: the rows are batch invariant and repeatable. The
// model's linears, attention and forward gate are not here: they are parity's kernels of the ops
// linear, sdpa, sdpa_backward and swiglu (ops/).
// exp is detmath's (IEEE basic operations and fma), never libm or __expf. Translation units
// that include this header compile without contraction (-ffp-contract=off / --fmad=false).
#include <cmath>
#include <cstdint>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>

namespace parity::subjects::rlkernels::model {

// One step of every chain: acc + a * b, rounded once.
PARITY_HD float mac(float acc, float a, float b) { return fmaf(a, b, acc); }

// acc continued by a[i * sa] * b[i * sb] for i = 0 .. n-1.
PARITY_HD float chain(float acc, const float* a, std::int64_t sa, const float* b,
                      std::int64_t sb, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) acc = mac(acc, a[i * sa], b[i * sb]);
  return acc;
}

// r = (mean(x^2) + eps)^-1/2 of one row of C values.
PARITY_HD float rms_inverse(const float* x, std::int64_t C, float eps) {
  const float mean = chain(0.0f, x, 1, x, 1, C) / static_cast<float>(C);
  return 1.0f / sqrtf(mean + eps);
}

// y = x r w for one row (w may be nullptr: weight 1).
PARITY_HD void rms_norm_row(const float* x, const float* w, std::int64_t C, float eps,
                            float* y) {
  const float r = rms_inverse(x, C, eps);
  for (std::int64_t c = 0; c < C; ++c) {
    const float xh = x[c] * r;
    y[c] = w ? xh * w[c] : xh;
  }
}

// dx = r (g - xh mean(g xh)) for one row, g = dy w (w may be nullptr).
PARITY_HD void rms_norm_backward_row(const float* x, const float* w, std::int64_t C, float eps,
                                     const float* dy, float* dx) {
  const float r = rms_inverse(x, C, eps);
  float dot = 0.0f;
  for (std::int64_t c = 0; c < C; ++c) {
    const float g = w ? dy[c] * w[c] : dy[c];
    dot = mac(dot, g, x[c] * r);
  }
  const float mu = dot / static_cast<float>(C);
  for (std::int64_t c = 0; c < C; ++c) {
    const float g = w ? dy[c] * w[c] : dy[c];
    dx[c] = r * (g - (x[c] * r) * mu);
  }
}

// One rotate-half pair: (x0, x1) rotated by the angle whose cosine and sine are (c, s).
// The backward pass is the same rotation with -s (exactly the adjoint's arithmetic).
PARITY_HD void rope_pair(float x0, float x1, float c, float s, float* o0, float* o1) {
  *o0 = x0 * c - x1 * s;
  *o1 = x1 * c + x0 * s;
}

// silu(a) = a / (1 + exp(-a)).
PARITY_HD float silu(float a) { return a / (1.0f + detmath::exp_f32(-a)); }

// silu'(a) = sig (1 + a (1 - sig)), sig = 1 / (1 + exp(-a)).
PARITY_HD float silu_derivative(float a) {
  const float sig = 1.0f / (1.0f + detmath::exp_f32(-a));
  return sig * (1.0f + a * (1.0f - sig));
}

// da = (du g) silu'(a), dg = du silu(a).
PARITY_HD void swiglu_gate_backward(float a, float g, float du, float* da, float* dg) {
  *da = (du * g) * silu_derivative(a);
  *dg = du * silu(a);
}

}  // namespace parity::subjects::rlkernels::model
