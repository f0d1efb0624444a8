#pragma once
// The bridge's comparison of one run of the tiny GPT against another (docs/reference.md, "bridge"):
// logits, loss and all 18 parameter gradients, element by element, passing where
// |manual - autograd| <= atol + rtol |autograd| (torch.allclose's rule, autograd as the
// reference). NaN equals NaN; a non-finite value against a finite one fails (core/compare.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/oracles/tiny_gpt_model.hpp>

namespace parity::properties::bridge {

// The reference bridge's tolerance: float64 paths that differ only in summation order agree
// to ~1e-16 relative, so 1e-10 absolute plus 1e-8 relative leaves six orders of margin yet
// fails any change of the function larger than that (the probes' smallest, unscaled
// attention, moves the gradients by ~1e-6 in the reference).
struct Tolerance {
  double atol = 1e-10;
  double rtol = 1e-8;
};

struct TensorAgreement {
  std::string name;  // "logits", "loss", or a parameter name
  std::vector<std::int64_t> shape;
  std::int64_t elements = 0;
  double max_abs_error = 0.0;   // +inf when a non-finite value meets a finite one
  std::int64_t violations = 0;  // elements outside atol + rtol |autograd|
  std::int64_t first_violation = -1;
  bool passed() const { return violations == 0; }
};

struct BridgeComparison {
  TensorAgreement logits, loss;
  double loss_value = 0.0;                 // the manual side's loss
  std::vector<TensorAgreement> gradients;  // the 18 parameters, in the reference order
  std::int64_t compared_gradient_elements = 0;
  int nonzero_manual_gradient_tensors = 0;  // manual gradients with an element != 0
  std::vector<std::string> zero_manual_gradients;

  bool passed() const;                   // every tensor within tolerance
  const TensorAgreement& worst() const;  // the largest max_abs_error
  // "" when passed, else one line: "grad Wq: 3 of 16 elements outside 1e-10 + 1e-8 |autograd|,
  // first [0, 1]; max abs error 2.1e-06".
  std::string first_failure(const Tolerance& tol) const;
};

// `manual` against `autograd` (the reference of rtol). Both must have grads, or both none.
// Throws std::logic_error when their shapes differ (the two paths ran different models).
BridgeComparison compare_bridge(const oracles::TinyGptOutput& manual, const oracles::TinyGptOutput& autograd,
                                const Tolerance& tol);

// The reference record's shape: {"logits": {max_abs_error, passed}, "loss": ..., "loss_value",
// "parameter_gradients": {name: {max_abs_error, passed}}, "compared_gradient_elements",
// "nonzero_manual_gradient_tensors", "passed"}, keys in that order (ordered_json).
nlohmann::ordered_json comparison_json(const BridgeComparison& c);

// A double as JSON: a number when finite, else "inf", "-inf" or "nan" (core/json_read.hpp's
// rule, for ordered_json).
nlohmann::ordered_json number_or_text(double v);

}  // namespace parity::properties::bridge
