#include <parity/properties/bridge/bridge_compare.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <parity/core/compare.hpp>

namespace parity::properties::bridge {
namespace {

TensorAgreement agree(const std::string& name, const std::vector<std::int64_t>& shape,
                      const std::vector<double>& manual, const std::vector<double>& autograd, const Tolerance& tol) {
  if (manual.size() != autograd.size())
    throw std::logic_error("bridge compare " + name + ": " + std::to_string(manual.size()) + " manual values vs " +
                           std::to_string(autograd.size()) + " autograd values");
  std::vector<double> bound(autograd.size());
  for (std::size_t i = 0; i < bound.size(); ++i)
    bound[i] = std::isfinite(autograd[i]) ? tol.atol + tol.rtol * std::fabs(autograd[i]) : 0.0;
  const BoundCheck check = check_bound(manual, autograd, bound);
  const ValueDiff diff = compare_values(manual, autograd);
  TensorAgreement a;
  a.name = name;
  a.shape = shape;
  a.elements = static_cast<std::int64_t>(manual.size());
  a.max_abs_error = diff.nonfinite_mismatch ? std::numeric_limits<double>::infinity() : diff.max_abs;
  a.violations = check.violations;
  a.first_violation = check.first_violation;
  return a;
}

nlohmann::ordered_json agreement_json(const TensorAgreement& a) {
  return {{"max_abs_error", number_or_text(a.max_abs_error)}, {"passed", a.passed()}};
}

}  // namespace

bool BridgeComparison::passed() const {
  if (!logits.passed() || !loss.passed()) return false;
  for (const auto& g : gradients)
    if (!g.passed()) return false;
  return true;
}

const TensorAgreement& BridgeComparison::worst() const {
  const TensorAgreement* w = &logits;
  if (!(loss.max_abs_error <= w->max_abs_error)) w = &loss;
  for (const auto& g : gradients)
    if (!(g.max_abs_error <= w->max_abs_error)) w = &g;
  return *w;
}

std::string BridgeComparison::first_failure(const Tolerance& tol) const {
  std::vector<const TensorAgreement*> all = {&logits, &loss};
  for (const auto& g : gradients) all.push_back(&g);
  for (const TensorAgreement* a : all) {
    if (a->passed()) continue;
    std::ostringstream s;
    s.precision(3);
    s << (a == &logits || a == &loss ? "" : "grad ") << a->name << ": " << a->violations << " of " << a->elements
      << " elements outside " << tol.atol << " + " << tol.rtol << " |autograd|, first "
      << index_text(a->first_violation, a->shape) << "; max abs error " << a->max_abs_error;
    return s.str();
  }
  return "";
}

BridgeComparison compare_bridge(const oracles::TinyGptOutput& manual, const oracles::TinyGptOutput& autograd,
                                const Tolerance& tol) {
  BridgeComparison c;
  const std::int64_t vocab = autograd.grads.b_out.values.empty()
                                 ? static_cast<std::int64_t>(autograd.logits.size())
                                 : static_cast<std::int64_t>(autograd.grads.b_out.values.size());
  const std::int64_t rows = vocab ? static_cast<std::int64_t>(autograd.logits.size()) / vocab : 0;
  c.logits = agree("logits", {rows, vocab}, manual.logits, autograd.logits, tol);
  c.loss = agree("loss", {}, {manual.loss}, {autograd.loss}, tol);
  c.loss_value = manual.loss;
  for (const auto& slot : oracles::tiny_gpt_param_slots()) {
    const oracles::Param& m = manual.grads.*slot.member;
    const oracles::Param& a = autograd.grads.*slot.member;
    if (m.shape != a.shape)
      throw std::logic_error(std::string("bridge compare grad ") + slot.name + ": shape " + shape_text(m.shape) +
                             " vs " + shape_text(a.shape));
    c.gradients.push_back(agree(slot.name, a.shape, m.values, a.values, tol));
    c.compared_gradient_elements += static_cast<std::int64_t>(a.values.size());
    bool nonzero = false;
    for (double v : m.values) nonzero = nonzero || v != 0.0;  // NaN != 0: counts as non-zero
    if (nonzero) ++c.nonzero_manual_gradient_tensors;
    else c.zero_manual_gradients.push_back(slot.name);
  }
  return c;
}

nlohmann::ordered_json number_or_text(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

nlohmann::ordered_json comparison_json(const BridgeComparison& c) {
  nlohmann::ordered_json j;
  j["logits"] = agreement_json(c.logits);
  j["loss"] = agreement_json(c.loss);
  j["loss_value"] = number_or_text(c.loss_value);
  j["parameter_gradients"] = nlohmann::ordered_json::object();
  for (const auto& g : c.gradients) j["parameter_gradients"][g.name] = agreement_json(g);
  j["compared_gradient_elements"] = c.compared_gradient_elements;
  j["nonzero_manual_gradient_tensors"] = c.nonzero_manual_gradient_tensors;
  j["passed"] = c.passed();
  return j;
}

}  // namespace parity::properties::bridge
