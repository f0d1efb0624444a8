#pragma once
// The multiprecision real type of parity's reference checks: MPFR through
// Boost.Multiprecision, 40 decimal digits (133 bits), expression templates off (the oracles
// are written for plain value semantics). About 100x-450x slower than double (docs/math.md, "Accurate oracles"): it
// checks the double oracles (oracle_agreement), not every verdict.
#include <boost/multiprecision/mpfr.hpp>

namespace parity::oracles {

using mp_real =
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<40>, boost::multiprecision::et_off>;

inline constexpr int kMpBits = 133;

}  // namespace parity::oracles
