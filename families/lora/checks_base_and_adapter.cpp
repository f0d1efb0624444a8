// The LoRA family's own properties: base_frozen (no gradient for W, its storage untouched) and
// zero_adapter_gradients (at B = 0, dA exactly 0 and dB not), the latter judged against the op
// lora_backward's reference (ops/lora_backward/lora_backward_op.hpp) in Bounded: every dA and dB
// element's value, its derived error bound and whether some permitted evaluation order may
// overflow, under the arithmetic a LoRA subject declares as a subject of that op.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/families/lora/lora_properties.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/lora/lora_problem.hpp>

namespace parity::properties::lora {
namespace {

// lora_backward's Bounded reference of a LoRA problem, under the default Arithmetic (float32,
// reductions in any order), which every LoRA subject has as a subject of the op
// (ops/lora_forward/lora_as_op_subject.hpp).
ops::BoundedOutputs backward_reference(const LoraProblem& p) {
  const std::int64_t T = p.in.x.dim(0), K = p.in.x.dim(1), N = p.in.W.dim(0), r = p.in.A.dim(0);
  ops::OpValues v;
  v.extents = {{"T", T}, {"N", N}, {"K", K}, {"r", r}};
  v.params = {{"scale", static_cast<double>(p.in.scale)}};
  v.inputs = {{"x", p.in.x.values()},
              {"W", p.in.W.values()},
              {"A", p.in.A.values()},
              {"B", p.in.B.values()},
              {"dy", p.dy.values()}};
  v.shapes = {{"x", {T, K}},  {"W", {N, K}},  {"A", {r, K}},  {"B", {N, r}},
              {"dy", {T, N}}, {"dx", {T, K}}, {"dA", {r, K}}, {"dB", {N, r}}};
  return ops::find_op_family("lora_backward").def().bounded(v, ops::Arithmetic{});
}

// One output's reference elements. Exempt: a non-finite exact value, or a bound that is not finite
// (a non-finite operand on the element's path): any value is accepted there.
struct Reference {
  const std::vector<double>& value;
  const std::vector<double>& err;
  const std::vector<std::uint8_t>& may_overflow;

  Reference(const ops::BoundedOutputs& ref, const std::string& name)
      : value(ref.value.at(name)), err(ref.err.at(name)), may_overflow(ref.may_overflow.at(name)) {}
  bool exempt(std::int64_t i) const { return !std::isfinite(value[i]) || !std::isfinite(err[i]); }
  // Exempt, or some order may overflow here and the subject's value is not finite: accepted as is.
  bool accepted(std::int64_t i, double got) const { return exempt(i) || (may_overflow[i] && !std::isfinite(got)); }
};

// The elements of an output that are exempt and those that some permitted order may overflow,
// with the first of each.
struct Marks {
  std::int64_t exempt = 0, first_exempt = -1;
  std::int64_t may_overflow = 0, first_may_overflow = -1;
  std::int64_t overflowed = 0;  // of those that may overflow, the subject's value not finite: accepted
};

Marks marks(const Tensor& out, const Reference& ref) {
  Marks m;
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    if (ref.exempt(i) && m.exempt++ == 0) m.first_exempt = i;
    if (ref.may_overflow[i] && m.may_overflow++ == 0) m.first_may_overflow = i;
    if (ref.may_overflow[i] && !std::isfinite(out.value_at(i))) ++m.overflowed;
  }
  return m;
}

// Why element `i` of dA or dB may overflow: the larger of the scaled activations on its path,
// s·dy and s·x (dA[j, k] reads every dy and x's column k; dB[n, j] dy's column n and every x),
// where it alone leaves float32's range; else a sum on the path.
std::string overflow_cause(const LoraProblem& p, bool dA, std::int64_t i, std::int64_t cols) {
  const std::int64_t T = p.in.x.dim(0), K = p.in.x.dim(1), N = p.in.W.dim(0);
  const double s = std::fabs(static_cast<double>(p.in.scale));
  double dy = 0, x = 0;
  for (std::int64_t t = 0; t < T; ++t) {
    for (std::int64_t n = 0; n < N; ++n)
      if (dA || n == i / cols) dy = std::max(dy, s * std::fabs(p.dy.value_at(t * N + n)));
    for (std::int64_t k = 0; k < K; ++k)
      if (!dA || k == i % cols) x = std::max(x, s * std::fabs(p.in.x.value_at(t * K + k)));
  }
  const double peak = std::max(dy, x);
  if (!(peak > 1.0e38)) return "a sum on its path may overflow float32 in some permitted order";
  // A single float32 product s·v rounds to Inf from FLT_MAX + half an ulp.
  return std::string(dy >= x ? "s·dy" : "s·x") + " reaches " + number_text(peak) + " and " +
         (peak >= 0x1.ffffffp127 ? "overflows" : "may overflow") + " float32 in some permitted order";
}

// What an output's exempt elements and those that may overflow were.
std::string exempt_text(const std::string& name, const LoraProblem& p, const Tensor& out, const Marks& m) {
  std::string text;
  const auto first = [&](std::int64_t i) { return ", first " + name + index_text(i, out.shape()) + ": "; };
  if (m.may_overflow)
    text += "; " + name + ": " + std::to_string(m.may_overflow) + " of " + std::to_string(out.numel()) +
            " elements may overflow (an Inf or NaN is accepted there, " + std::to_string(m.overflowed) +
            " were; a finite value is checked)" + first(m.first_may_overflow) +
            overflow_cause(p, name == "dA", m.first_may_overflow, out.dim(1));
  if (m.exempt)
    text += "; " + name + ": " + std::to_string(m.exempt) + " elements exempt" + first(m.first_exempt) +
            "a non-finite operand on its path";
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
  const ops::BoundedOutputs ref = backward_reference(p);
  // dA = dh^T x with dh = s dy B = 0 is exactly 0 in every permitted order that does not overflow;
  // where one may (s·dy or s·x beyond float32 makes Inf * 0 = NaN), a non-finite dA is accepted
  // and a finite one must still be 0 (a product or sum keeps an Inf non-finite).
  const Reference dA(ref, "dA");
  const Marks ja = marks(g.dA, dA);
  for (std::int64_t i = 0; i < g.dA.numel(); ++i) {
    if (dA.accepted(i, g.dA.value_at(i))) continue;
    if (g.dA.value_at(i) != 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 but dA" + index_text(i, g.dA.shape()) + " = " +
                                                         number_text(g.dA.value_at(i)) + " (must be exactly 0)" +
                                                         exempt_text("dA", p, g.dA, ja));
  }
  // dB = s dy^T h: where the reference's |dB| exceeds twice its bound, the exact dB and every
  // evaluation within the bound of it are non-zero, so the subject's dB cannot be 0 unless it
  // overflowed (then not finite, accepted); an exempt element is not checked.
  const Reference dB(ref, "dB");
  const Marks jb = marks(g.dB, dB);
  std::int64_t must_be_nonzero = 0;
  for (std::int64_t i = 0; i < g.dB.numel(); ++i) {
    if (dB.accepted(i, g.dB.value_at(i)) || !(std::fabs(dB.value[i]) > 2 * dB.err[i])) continue;
    ++must_be_nonzero;
    if (g.dB.value_at(i) == 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 and dB" + index_text(i, g.dB.shape()) +
                                                         " = 0, but s dy^T h there is " + number_text(dB.value[i]));
  }
  const std::string exempt = exempt_text("dA", p, g.dA, ja) + exempt_text("dB", p, g.dB, jb);
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
