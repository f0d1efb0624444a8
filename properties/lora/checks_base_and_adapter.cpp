// The LoRA family's own properties: base_frozen (no gradient for W, its storage untouched) and
// zero_adapter_gradients (at B = 0, dA exactly 0 and dB not), the latter judged against the fast
// accurate oracle (oracles/lora_fast.hpp) with the derived per-element bounds of error_bounds.hpp.
#include <algorithm>
#include <cmath>
#include <functional>

#include <parity/core/compare.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/properties/lora/error_bounds.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/lora_properties.hpp>
#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity::properties::lora {
namespace {

// The oracle's values and bounds at every element of an output (row-major).
struct Reference {
  std::vector<double> value, bound, oracle_err, peak;
  std::vector<const char*> peak_at;
  std::vector<std::uint8_t> may_overflow;  // error_bounds.hpp's may_overflow(peak)
};

// Evaluates `element(i, j)` and its bound at every element of a rows x cols output.
Reference reference(std::int64_t rows, std::int64_t cols,
                    const std::function<oracles::Estimate<double>(std::int64_t, std::int64_t)>& element,
                    const std::function<double(const oracles::Estimate<double>&)>& bound) {
  Reference r;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const auto e = element(i, j);
      r.value.push_back(e.value);
      r.bound.push_back(bound(e));
      r.oracle_err.push_back(e.oracle_err);
      r.peak.push_back(e.peak);
      r.peak_at.push_back(e.peak_at);
      r.may_overflow.push_back(may_overflow(e.peak) ? 1 : 0);
    }
  return r;
}

// dA and dB with their float32 bounds (error_bounds.hpp).
Reference dA_reference(const oracles::LoraFastOracle& oracle, const oracles::LoraOperands& op) {
  return reference(
      op.r, op.K, [&](std::int64_t j, std::int64_t k) { return oracle.dA(j, k); },
      [&](const auto& e) { return f32_result_bound(e.abs_sum, e.peak, e.underflow, depth_dA(op.N, op.T)); });
}

Reference dB_reference(const oracles::LoraFastOracle& oracle, const oracles::LoraOperands& op) {
  return reference(
      op.N, op.r, [&](std::int64_t n, std::int64_t j) { return oracle.dB(n, j); },
      [&](const auto& e) { return f32_result_bound(e.abs_sum, e.peak, e.underflow, depth_dB(op.K, op.T)); });
}

// The elements of an output that are exempt (an infinite bound: a non-finite peak) and those that
// some permitted order may overflow, with the first of each.
struct Marks {
  std::int64_t exempt = 0, first_exempt = -1;
  std::int64_t may_overflow = 0, first_may_overflow = -1;
  std::int64_t overflowed = 0;  // of those that may overflow, the subject's value not finite: accepted
};

Marks marks(const Tensor& out, const Reference& ref) {
  Marks m;
  for (std::size_t i = 0; i < ref.bound.size(); ++i) {
    const auto at = static_cast<std::int64_t>(i);
    if (std::isinf(ref.bound[i]) && m.exempt++ == 0) m.first_exempt = at;
    if (ref.may_overflow[i] && m.may_overflow++ == 0) m.first_may_overflow = at;
    if (ref.may_overflow[i] && !std::isfinite(out.value_at(at))) ++m.overflowed;
  }
  return m;
}

// What an output's exempt elements and those that may overflow were.
std::string exempt_text(const std::string& name, const Tensor& out, const Reference& ref, const Marks& m) {
  std::string text;
  if (m.may_overflow)
    text += "; " + name + ": " + std::to_string(m.may_overflow) + " of " + std::to_string(ref.bound.size()) +
            " elements may overflow (an Inf or NaN is accepted there, " + std::to_string(m.overflowed) +
            " were; a finite value is checked), first " + name + index_text(m.first_may_overflow, out.shape()) + ": " +
            overflow_exemption(ref.peak_at[m.first_may_overflow], ref.peak[m.first_may_overflow]);
  if (m.exempt)
    text += "; " + name + ": " + std::to_string(m.exempt) + " elements exempt, first " + name +
            index_text(m.first_exempt, out.shape()) + ": " +
            overflow_exemption(ref.peak_at[m.first_exempt], ref.peak[m.first_exempt]);
  return text;
}

}  // namespace

Verdict check_zero_adapter_gradients(const Case& c, LoraSubject* s) {
  Case zero = c;
  zero.params["b_zero"] = 1.0;
  std::erase_if(zero.patches, [](const Patch& p) { return p.operand == "B"; });
  const LoraProblem p = materialise(zero);
  for (const Tensor* t : {&p.in.x, &p.dy})
    for (std::int64_t i = 0; i < t->numel(); ++i)
      if (!std::isfinite(t->value_at(i)))
        return Verdict::discard("zero_adapter_gradients", "x or dy holds a non-finite value (0 * Inf is NaN)");
  const subjects::LoraGradients g = s->backward(p.in, p.dy);
  const OracleInputs in(p);
  const oracles::LoraFastOracle oracle(in.operands, oracles::LoraFastOracle::Outputs::adapter);
  const auto& op = in.operands;
  // dA = dh^T x with dh = s dy B = 0 is exactly 0 in every permitted order that does not overflow;
  // where one may (s·dy or s·x beyond float32 makes Inf * 0 = NaN), a non-finite dA is accepted
  // and a finite one must still be 0 (a product or sum keeps an Inf non-finite).
  const Reference dA = dA_reference(oracle, op);
  const Marks ja = marks(g.dA, dA);
  for (std::int64_t i = 0; i < g.dA.numel(); ++i) {
    if (std::isinf(dA.bound[i]) || (dA.may_overflow[i] && !std::isfinite(g.dA.value_at(i)))) continue;
    if (g.dA.value_at(i) != 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 but dA" + index_text(i, g.dA.shape()) + " = " +
                                                         number_text(g.dA.value_at(i)) + " (must be exactly 0)" +
                                                         exempt_text("dA", g.dA, dA, ja));
  }
  // dB = s dy^T h: where the oracle's |dB| exceeds its bound, the subject's dB cannot be 0 unless
  // it overflowed (then not finite, accepted); an element whose bound is infinite is exempt.
  const Reference dB = dB_reference(oracle, op);
  const Marks jb = marks(g.dB, dB);
  std::int64_t must_be_nonzero = 0;
  for (std::int64_t i = 0; i < g.dB.numel(); ++i) {
    if (std::isinf(dB.bound[i]) || (dB.may_overflow[i] && !std::isfinite(g.dB.value_at(i)))) continue;
    if (!(std::fabs(dB.value[i]) > dB.bound[i] + dB.oracle_err[i])) continue;
    ++must_be_nonzero;
    if (g.dB.value_at(i) == 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 and dB" + index_text(i, g.dB.shape()) +
                                                         " = 0, but s dy^T h there is " + number_text(dB.value[i]));
  }
  const std::string exempt = exempt_text("dA", g.dA, dA, ja) + exempt_text("dB", g.dB, dB, jb);
  Verdict v = must_be_nonzero == 0
                  ? Verdict::discard("zero_adapter_gradients", "dB may legitimately vanish here" + exempt)
                  : Verdict::pass("zero_adapter_gradients", "dA exactly 0, dB non-zero wherever it must be" + exempt);
  v.metrics["grad_a_exempt"] = static_cast<double>(ja.exempt);
  v.metrics["grad_b_exempt"] = static_cast<double>(jb.exempt);
  v.metrics["grad_a_may_overflow"] = static_cast<double>(ja.may_overflow);
  v.metrics["grad_b_may_overflow"] = static_cast<double>(jb.may_overflow);
  return v;
}

Verdict check_base_frozen(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const Tensor w_before = p.in.W;
  static_cast<void>(s->forward(p.in));
  const subjects::LoraGradients g = s->backward(p.in, p.dy);
  if (g.dW.has_value()) return Verdict::fail("base_frozen", "the subject returned a gradient for the frozen weight W");
  const auto before = w_before.storage_bytes(), after = p.in.W.storage_bytes();
  if (!std::equal(before.begin(), before.end(), after.begin(), after.end()))
    return Verdict::fail("base_frozen", "W's storage changed during forward + backward");
  return Verdict::pass("base_frozen", "no dW; W untouched");
}

}  // namespace parity::properties::lora
