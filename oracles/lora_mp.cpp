#include <parity/oracles/lora_mp.hpp>

#include <cmath>

#include <parity/oracles/multiprecision.hpp>

namespace parity::oracles {
namespace {

// The rounding to double adds half an ulp of the value to the oracle's error.
Estimate<double> to_double(const Estimate<mp_real>& e) {
  const double v = e.value.convert_to<double>();
  return {v,
          e.abs_sum.convert_to<double>(),
          e.peak.convert_to<double>(),
          e.underflow,
          e.oracle_err + 0x1p-53 * std::fabs(v) + 0x1p-1074,
          e.peak_at};
}

}  // namespace

struct LoraMpOracle::Impl {
  LoraOracle<mp_real> oracle;
};

LoraMpOracle::LoraMpOracle(const LoraOperands& op) : impl_(new Impl{LoraOracle<mp_real>(op)}) {}
LoraMpOracle::~LoraMpOracle() = default;

Estimate<double> LoraMpOracle::y(std::int64_t t, std::int64_t n) const { return to_double(impl_->oracle.y(t, n)); }
Estimate<double> LoraMpOracle::dx(std::int64_t t, std::int64_t k) const { return to_double(impl_->oracle.dx(t, k)); }
Estimate<double> LoraMpOracle::dA(std::int64_t j, std::int64_t k) const { return to_double(impl_->oracle.dA(j, k)); }
Estimate<double> LoraMpOracle::dB(std::int64_t n, std::int64_t j) const { return to_double(impl_->oracle.dB(n, j)); }

}  // namespace parity::oracles
