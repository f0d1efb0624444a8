#pragma once
// The fast-exp probes' exp (swiglu_op.cpp): Cody-Waite reduction in
// float32 (ln 2 unsplit) and a degree-5 Taylor polynomial, as hand-rolled fast-math kernels do:
// tens of ulps (truncation r^6 / 720 for |r| <= ln2 / 2, and the reduction's error growing with
// |x|), far outside the 0.5 ulp the kernels declare. For |x| <= 88 (the callers keep the exact path
// beyond: saturated, infinite or NaN).
#include <cmath>

namespace parity::ops::swiglu {

inline float fast_exp(float x) {
  const float n = std::nearbyint(x * 1.44269504f);
  const float r = x - n * 0.693147182f;
  const float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120)))));
  return std::ldexp(p, static_cast<int>(n));
}

}  // namespace parity::ops::swiglu
