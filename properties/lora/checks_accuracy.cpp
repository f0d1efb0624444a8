// The LoRA accuracy properties: forward_accuracy and gradient_accuracy against the fast
// accurate oracle (oracles/lora_fast.hpp) with the derived per-element bounds of
// error_bounds.hpp. The oracle states its own error per element: an element fails only when
// it lies outside its bound widened by that error (the kernel is certainly wrong), and a
// verdict whose oracle error reaches half of some element's bound is discarded as "the
// oracle is not sure" rather than passed. Its largest share of a bound is recorded as
// oracle_err_utilisation. A case with params.checked_outputs checks that many drawn elements of y
// and of dx (lora_problem.hpp's checked_indices), and the oracle evaluates only those.
#include <cmath>
#include <functional>
#include <numeric>

#include <parity/core/compare.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/properties/lora/error_bounds.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/lora_properties.hpp>
#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity::properties::lora {
namespace {

// The oracle's values and bounds at the checked elements: value[m] is element index[m] of the
// output (row-major).
struct Reference {
  std::vector<std::int64_t> index;
  std::vector<double> value, bound, oracle_err, peak;
  std::vector<const char*> peak_at;
  std::vector<std::uint8_t> may_overflow;  // error_bounds.hpp's may_overflow(peak)
};

// Where the oracle's own error reaches this share of a bound, the verdict is not trusted.
constexpr double kOracleUnsure = 0.5;

// Evaluates `element(i, j)` and its bound at the elements `index` of a rows x cols output.
Reference reference(std::int64_t cols, std::vector<std::int64_t> index,
                    const std::function<oracles::Estimate<double>(std::int64_t, std::int64_t)>& element,
                    const std::function<double(const oracles::Estimate<double>&)>& bound) {
  Reference r;
  r.index = std::move(index);
  const std::size_t n = r.index.size();
  r.value.resize(n);
  r.bound.resize(n);
  r.oracle_err.resize(n);
  r.peak.resize(n);
  r.peak_at.resize(n);
  r.may_overflow.resize(n);
  for (std::size_t m = 0; m < n; ++m) {
    const auto e = element(r.index[m] / cols, r.index[m] % cols);
    r.value[m] = e.value;
    r.bound[m] = bound(e);
    r.oracle_err[m] = e.oracle_err;
    r.peak[m] = e.peak;
    r.peak_at[m] = e.peak_at;
    r.may_overflow[m] = may_overflow(e.peak) ? 1 : 0;
  }
  return r;
}

// Every element of a rows x cols output.
Reference reference(std::int64_t rows, std::int64_t cols,
                    const std::function<oracles::Estimate<double>(std::int64_t, std::int64_t)>& element,
                    const std::function<double(const oracles::Estimate<double>&)>& bound) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(rows * cols));
  std::iota(all.begin(), all.end(), std::int64_t{0});
  return reference(cols, std::move(all), element, bound);
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

struct Judged {
  BoundCheck check;  // against bound + oracle_err
  ValueDiff diff;
  double oracle_share = 0;  // max over elements with a finite value and bound of oracle_err / bound
  std::int64_t worst_oracle = -1;
  std::int64_t exempt = 0;  // elements with an infinite bound (a non-finite peak)
  std::int64_t first_exempt = -1;
  std::int64_t may_overflow = 0;  // elements some permitted order may overflow
  std::int64_t first_may_overflow = -1;
  std::int64_t overflowed = 0;  // of those, the subject's value not finite: accepted
  std::size_t checked = 0;      // elements judged
};

Judged judge(const Tensor& out, const Reference& ref) {
  std::vector<double> got(ref.index.size());
  for (std::size_t m = 0; m < got.size(); ++m) got[m] = out.value_at(ref.index[m]);
  std::vector<double> widened(ref.bound.size());
  Judged j;
  j.checked = got.size();
  for (std::size_t i = 0; i < widened.size(); ++i) {
    widened[i] = ref.bound[i] + ref.oracle_err[i];
    if (std::isinf(ref.bound[i]) && j.exempt++ == 0) j.first_exempt = static_cast<std::int64_t>(i);
    if (ref.may_overflow[i] && j.may_overflow++ == 0) j.first_may_overflow = static_cast<std::int64_t>(i);
    if (ref.may_overflow[i] && !std::isfinite(got[i])) ++j.overflowed;
    if (!std::isfinite(ref.value[i]) || !std::isfinite(ref.bound[i])) continue;
    const double share = ref.bound[i] > 0                ? ref.oracle_err[i] / ref.bound[i]
                         : std::isinf(ref.oracle_err[i]) ? INFINITY
                                                         : 0.0;
    if (!(share <= j.oracle_share)) {
      j.oracle_share = share;
      j.worst_oracle = static_cast<std::int64_t>(i);
    }
  }
  j.check = check_bound(got, ref.value, widened, ref.may_overflow);
  j.diff = compare_values(got, ref.value);
  return j;
}

// "the oracle is not sure" about `name`, or empty when it is.
std::string unsure_text(const std::string& name, const Tensor& out, const Reference& ref, const Judged& j) {
  if (!(j.oracle_share >= kOracleUnsure)) return {};
  const auto i = j.worst_oracle;
  return name + ": the oracle is not sure: its own error " + number_text(ref.oracle_err[i]) + " at " + name +
         index_text(ref.index[i], out.shape()) + " is " + number_text(j.oracle_share) + " of the kernel's bound " +
         number_text(ref.bound[i]);
}

// `first` is the position in `ref` of the first element that may overflow, of `count` among `of`
// checked, `overflowed` of them not finite.
std::string overflow_text(const std::string& name, const Tensor& out, const Reference& ref, std::int64_t count,
                          std::int64_t first, std::int64_t overflowed, std::size_t of) {
  if (count == 0) return {};
  return "; " + name + ": " + std::to_string(count) + " of " + std::to_string(of) +
         " elements may overflow (an Inf or NaN is accepted there, " + std::to_string(overflowed) +
         " were; a finite value is checked), first " + name + index_text(ref.index[first], out.shape()) + ": " +
         overflow_exemption(ref.peak_at[first], ref.peak[first]);
}

// What a judged output's exempt elements and those that may overflow were.
std::string exempt_text(const std::string& name, const Tensor& out, const Reference& ref, const Judged& j) {
  std::string text =
      overflow_text(name, out, ref, j.may_overflow, j.first_may_overflow, j.overflowed, ref.index.size());
  if (j.exempt)
    text += "; " + name + ": " + std::to_string(j.exempt) + " elements exempt, first " + name +
            index_text(ref.index[j.first_exempt], out.shape()) + ": " +
            overflow_exemption(ref.peak_at[j.first_exempt], ref.peak[j.first_exempt]);
  return text;
}

// ", k of n elements checked (params.checked_outputs)" when a subset was checked, else "".
std::string subset_text(const Tensor& out, const Reference& ref) {
  if (static_cast<std::int64_t>(ref.index.size()) == out.numel()) return {};
  return " (" + std::to_string(ref.index.size()) + " of " + std::to_string(out.numel()) +
         " elements checked, drawn by params.checked_outputs)";
}

std::string violation_text(const std::string& name, const Tensor& out, const Reference& ref, const Judged& j) {
  const std::int64_t m = j.check.first_violation, i = ref.index[m];
  return name + ": " + std::to_string(j.check.violations) + " of " + std::to_string(ref.index.size()) +
         " elements checked outside their bound; first " + name + index_text(i, out.shape()) + " = " +
         number_text(out.value_at(i)) + ", fp64 " + number_text(ref.value[m]) +
         nonfinite_note(out.value_at(i), ref.value[m], "fp64") + ", bound " + number_text(ref.bound[m]) +
         " (max utilisation " + number_text(j.check.max_utilisation) + ")" +
         (ref.may_overflow[m] ? "; " + overflow_exemption(ref.peak_at[m], ref.peak[m]) +
                                    ": an Inf or NaN would be accepted there, a finite value must be within the bound"
                              : "") +
         subset_text(out, ref);
}

// Whether no element was checked: each exempt from its bound, or not finite where it may overflow.
bool all_exempt(const Reference& ref, const Judged& j) {
  return j.exempt + j.overflowed == static_cast<std::int64_t>(ref.index.size());
}

std::string nothing_checked_text(const std::string& names, std::int64_t elements) {
  return names + ": all " + std::to_string(elements) +
         " elements exempt or not finite where they may overflow: nothing checked";
}

void record(Verdict& v, const std::string& prefix, const Judged& j) {
  v.metrics[prefix + "bound_utilisation"] = j.check.max_utilisation;
  v.metrics[prefix + "rel_err_vs_fp64"] = j.diff.normwise_rel;
  v.metrics[prefix + "max_abs_err_vs_fp64"] = j.diff.max_abs;
  v.metrics[prefix + "oracle_err_utilisation"] = j.oracle_share;
  v.metrics[prefix + "exempt"] = static_cast<double>(j.exempt);
  v.metrics[prefix + "may_overflow"] = static_cast<double>(j.may_overflow);
  v.metrics[prefix + "overflowed"] = static_cast<double>(j.overflowed);
  v.metrics[prefix + "checked"] = static_cast<double>(j.checked);
}

}  // namespace

Verdict check_forward_accuracy(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const Tensor y = s->forward(p.in);
  const OracleInputs in(p);
  const oracles::LoraFastOracle oracle(in.operands, oracles::LoraFastOracle::Outputs::forward);
  const auto& op = in.operands;
  const Reference ref = reference(
      op.N, checked_indices(c, op.T * op.N, kCheckedStreamY),
      [&](std::int64_t t, std::int64_t n) { return oracle.y(t, n); },
      [&](const oracles::Estimate<double>& e) {
        return bf16_result_bound(e.value, e.abs_sum, e.peak, e.underflow, depth_y(op.K, op.r));
      });
  const Judged j = judge(y, ref);
  const std::string unsure = unsure_text("y", y, ref, j);
  Verdict v = !j.check.holds()     ? Verdict::fail("forward_accuracy", violation_text("y", y, ref, j))
              : all_exempt(ref, j) ? Verdict::discard("forward_accuracy", nothing_checked_text("y", y.numel()))
              : unsure.empty()
                  ? Verdict::pass("forward_accuracy", "every y element within its bound" + subset_text(y, ref))
                  : Verdict::discard("forward_accuracy", unsure);
  v.detail += exempt_text("y", y, ref, j);
  record(v, "", j);
  return v;
}

Verdict check_gradient_accuracy(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const subjects::LoraGradients g = s->backward(p.in, p.dy);
  const OracleInputs in(p);
  const oracles::LoraFastOracle oracle(in.operands, oracles::LoraFastOracle::Outputs::backward);
  const auto& op = in.operands;
  const Reference dx = reference(
      op.K, checked_indices(c, op.T * op.K, kCheckedStreamDx),
      [&](std::int64_t t, std::int64_t k) { return oracle.dx(t, k); },
      [&](const auto& e) { return bf16_result_bound(e.value, e.abs_sum, e.peak, e.underflow, depth_dx(op.N, op.r)); });
  const Reference dA = dA_reference(oracle, op);
  const Reference dB = dB_reference(oracle, op);
  const Judged jx = judge(g.dx, dx), ja = judge(g.dA, dA), jb = judge(g.dB, dB);
  Verdict v = Verdict::pass("gradient_accuracy", "every dx, dA, dB element within its bound" + subset_text(g.dx, dx));
  if (!jx.check.holds()) v = Verdict::fail("gradient_accuracy", violation_text("dx", g.dx, dx, jx));
  else if (!ja.check.holds()) v = Verdict::fail("gradient_accuracy", violation_text("dA", g.dA, dA, ja));
  else if (!jb.check.holds()) v = Verdict::fail("gradient_accuracy", violation_text("dB", g.dB, dB, jb));
  else if (const std::string u =
               unsure_text("dx", g.dx, dx, jx) + unsure_text("dA", g.dA, dA, ja) + unsure_text("dB", g.dB, dB, jb);
           !u.empty())
    v = Verdict::discard("gradient_accuracy", u);
  else if (all_exempt(dx, jx) && all_exempt(dA, ja) && all_exempt(dB, jb))
    v = Verdict::discard("gradient_accuracy",
                         nothing_checked_text("dx, dA, dB", g.dx.numel() + g.dA.numel() + g.dB.numel()));
  v.detail += exempt_text("dx", g.dx, dx, jx) + exempt_text("dA", g.dA, dA, ja) + exempt_text("dB", g.dB, dB, jb);
  record(v, "grad_x_", jx);
  record(v, "grad_a_", ja);
  record(v, "grad_b_", jb);
  return v;
}

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
  const Judged ja = judge(g.dA, dA);  // counts the marks over every element before any is judged
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
  const Judged jb = judge(g.dB, dB);
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

}  // namespace parity::properties::lora
