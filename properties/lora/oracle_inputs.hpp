#pragma once
// The exact values of a LoRA problem's operands, row-major doubles, for the oracles.
#include <vector>

#include <parity/oracles/lora.hpp>
#include <parity/properties/lora/lora_problem.hpp>

namespace parity::properties::lora {

struct OracleInputs {
  std::vector<double> x, W, A, B, G;
  oracles::LoraOperands operands;  // spans into the vectors above

  explicit OracleInputs(const LoraProblem& p);
  OracleInputs(const OracleInputs&) = delete;
  OracleInputs& operator=(const OracleInputs&) = delete;
};

}  // namespace parity::properties::lora
