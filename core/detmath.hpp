#pragma once
// Deterministic elementary functions built from IEEE basic operations and fma only, so that
// generated inputs have the same bits on every machine (no libm). Accuracy: a few ulps of
// double, which is ample for generating inputs; they are not an oracle.
#include <cstdint>

namespace parity::detmath {

// Natural logarithm of a finite x > 0 (normal or subnormal).
double log(double x);

// sin and cos of 2*pi*t for t in [0, 1).
void sincos_2pi(double t, double* s, double* c);

}  // namespace parity::detmath
