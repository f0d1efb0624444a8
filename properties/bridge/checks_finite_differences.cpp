// The bridge's oracle self-check: finite_differences.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <parity/core/compare.hpp>
#include <parity/oracles/tiny_gpt.hpp>
#include <parity/properties/bridge/bridge_properties.hpp>

namespace parity::properties::bridge {
namespace {

constexpr std::size_t kElementsPerParam = 24;
constexpr double kStep = 1e-5;
constexpr double kAbs = 1e-7, kRel = 1e-5;

// Up to kElementsPerParam indices spread over [0, n).
std::vector<std::size_t> sampled(std::size_t n) {
  std::vector<std::size_t> idx;
  if (n <= kElementsPerParam) {
    for (std::size_t i = 0; i < n; ++i) idx.push_back(i);
  } else {
    for (std::size_t i = 0; i < kElementsPerParam; ++i) idx.push_back(i * n / kElementsPerParam);
  }
  return idx;
}

}  // namespace

Verdict check_finite_differences(const Case& c, const BridgeSubject& s) {
  const BridgeProblem p = materialise_bridge(c);
  const oracles::TinyGptConfig cfg = s.manual_config(p.config);
  const auto out = oracles::tiny_gpt_forward_backward(cfg, p.params, p.ids, p.targets);
  double worst = 0.0;  // max |fd - g| / (kAbs + kRel |g|)
  std::int64_t checked = 0;
  for (const auto& slot : oracles::tiny_gpt_param_slots()) {
    const auto& grad = (out.grads.*slot.member).values;
    for (std::size_t i : sampled(grad.size())) {
      oracles::TinyGptParams moved = p.params;
      double& x = (moved.*slot.member).values[i];
      const double x0 = x, h = kStep * std::max(1.0, std::fabs(x0));
      auto loss_at = [&](double step) {
        x = x0 + step;
        return oracles::tiny_gpt_forward(cfg, moved, p.ids, p.targets).loss;
      };
      // The five-point stencil: its error is O(h^4) in the fifth derivative rather than O(h^2)
      // in the third, which matters because a LayerNorm of a near-constant row (rstd up to
      // 1/sqrt(eps) = 316) makes the higher derivatives of the loss large.
      const double fd = (8.0 * (loss_at(h) - loss_at(-h)) - (loss_at(2.0 * h) - loss_at(-2.0 * h))) / (12.0 * h);
      const double g = grad[i];
      ++checked;
      if (std::isnan(fd) && std::isnan(g)) continue;
      const double ratio = std::fabs(fd - g) / (kAbs + kRel * std::fabs(g));
      if (!(ratio <= 1.0)) {
        std::ostringstream m;
        m.precision(6);
        m << "grad " << slot.name << index_text(static_cast<std::int64_t>(i), (out.grads.*slot.member).shape) << " = "
          << g << " but the five-point difference of the loss gives " << fd << " (allowed " << kAbs << " + " << kRel
          << " |g|)";
        Verdict v = Verdict::fail("finite_differences", m.str());
        v.metrics["elements_checked"] = static_cast<double>(checked);
        return v;
      }
      worst = std::max(worst, ratio);
    }
  }
  Verdict v = Verdict::pass("finite_differences",
                            std::to_string(checked) + " gradient elements agree with five-point differences");
  v.metrics["elements_checked"] = static_cast<double>(checked);
  v.metrics["tolerance_utilisation"] = worst;
  return v;
}

}  // namespace parity::properties::bridge
