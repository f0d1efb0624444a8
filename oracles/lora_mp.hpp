#pragma once
// LoraOracle<mp_real>, compiled once (oracles/lora_mp.cpp): include this rather than
// instantiating the multiprecision oracle in every translation unit. Values come back as
// doubles (rounded to nearest) for comparison against the double oracle.
#include <memory>

#include <parity/oracles/estimate.hpp>
#include <parity/oracles/lora.hpp>

namespace parity::oracles {

class LoraMpOracle {
 public:
  explicit LoraMpOracle(const LoraOperands& op);
  ~LoraMpOracle();
  Estimate<double> y(std::int64_t t, std::int64_t n) const;
  Estimate<double> dx(std::int64_t t, std::int64_t k) const;
  Estimate<double> dA(std::int64_t j, std::int64_t k) const;
  Estimate<double> dB(std::int64_t n, std::int64_t j) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parity::oracles
