// The LoRA family's own properties: base_frozen (no output beyond dx, dA and dB, W's storage
// untouched) and zero_adapter_gradients (at B = 0, dA exactly 0 and dB not), the latter judged
// against lora_backward's reference (ops/lora_backward/lora_backward_op.hpp) in Bounded: every dA
// and dB element's value, its derived error bound and whether some permitted evaluation order may
// overflow, under the subject's declared arithmetic.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/dtype.hpp>
#include <parity/families/lora/lora_properties.hpp>
#include <parity/ops/framework/bounded.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/lora_backward/lora_backward_op.hpp>

namespace parity::properties::lora {
namespace {

using ops::lora_backward::LoraBackward;

// lora_backward's reference on the problem's values in Bounded, under `arithmetic`: dA's and dB's
// elements, row-major (dx, which no check here reads, is not evaluated).
std::map<std::string, std::vector<ops::Bounded>> backward_reference(const ops::OpValues& v,
                                                                    const ops::Arithmetic& arithmetic) {
  ops::Eval<ops::Bounded> e(v, arithmetic, {"dA", "dB"});
  LoraBackward::reference(e);
  return std::move(e.outputs());
}

// Why the subject's output `name` cannot be read as lora_backward's output of that name: missing,
// its shape is not the declared one, or it is not float32; "" when it can.
std::string invalid_output(const std::string& name, const ops::OpOutputs& outputs,
                           const std::vector<std::int64_t>& shape) {
  const auto it = outputs.find(name);
  if (it == outputs.end()) return "invalid output: the subject returned no " + name;
  const Tensor& got = it->second;
  if (got.shape() != shape)
    return "invalid output: " + name + " is " + shape_text(got.shape()) + " where " + shape_text(shape) +
           " is expected";
  if (got.dtype() != DType::f32)
    return "invalid output: " + name + " is " + std::string(dtype_name(got.dtype())) + ", not " +
           std::string(dtype_name(DType::f32));
  return "";
}

// One output's reference elements. Exempt: a non-finite exact value, or a bound that is not finite
// (a non-finite operand on the element's path): any value is accepted there.
struct Reference {
  const std::vector<ops::Bounded>& at;

  bool exempt(std::int64_t i) const { return !std::isfinite(value(i)) || !std::isfinite(err(i)); }
  double value(std::int64_t i) const { return at[static_cast<std::size_t>(i)].value(); }
  double err(std::int64_t i) const { return at[static_cast<std::size_t>(i)].err(); }
  bool may_overflow(std::int64_t i) const { return at[static_cast<std::size_t>(i)].may_overflow(); }
  // Exempt, or some order may overflow here and the subject's value is not finite: accepted as is.
  bool accepted(std::int64_t i, double got) const { return exempt(i) || (may_overflow(i) && !std::isfinite(got)); }
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
    if (ref.may_overflow(i) && m.may_overflow++ == 0) m.first_may_overflow = i;
    if (ref.may_overflow(i) && !std::isfinite(out.value_at(i))) ++m.overflowed;
  }
  return m;
}

// An intermediate on an output element's path, the largest magnitude it reaches there, and
// whether it is one float32 rounding of exact values (s times an operand element).
struct Intermediate {
  const char* name;
  double peak;
  bool scaled_operand = false;
};

// float32's largest finite, and where a single rounding gives Inf (FLT_MAX + half an ulp: below
// it, round to nearest gives FLT_MAX).
constexpr double kF32MaxFinite = 0x1.fffffep127, kF32RoundsToInf = 0x1.ffffffp127;

// Why element `i` of dA or dB (`cols` columns) may overflow at B = 0, from the intermediates of
// lora_backward's evaluation orders on its path (ops/lora_backward/lora_backward_op.hpp):
//   dA[j, k] = sum_t s (dy B)[t, j] x[t, k]: at B = 0 every product and sum is 0 but the scaled
//     operands s·dy (every dy) and s·x (x's column k);
//   dB[n, j] = sum_t s dy[t, n] h[t, j], h[t, j] = sum_k x[t, k] A[j, k]: h, dy·h, the unscaled
//     sum dy^T h, dB itself, s·h, and the scaled operands s·dy (dy's column n), s·x (every x) and
//     s·A (A's row j); a sum's magnitude is its terms' magnitudes summed.
// The one that reaches furthest beyond float32 is named (the first listed among equals): a scaled
// operand where it rounds to Inf, which it does in the order that scales that operand; a computed
// one where its magnitude reaches FLT_MAX. Bounded marks an element as soon as an intermediate
// comes within its rounding errors of FLT_MAX: where none reaches it, the wording is neutral.
std::string overflow_cause(const ops::OpCall& call, bool dA, std::int64_t i, std::int64_t cols) {
  const std::int64_t T = call.extent("T"), K = call.extent("K"), N = call.extent("N");
  const double s = std::fabs(static_cast<double>(static_cast<float>(call.param("scale"))));
  const Tensor &in_x = call.input("x"), &in_A = call.input("A"), &in_dy = call.input("dy");
  const auto x = [&](std::int64_t t, std::int64_t k) { return std::fabs(in_x.value_at(t * K + k)); };
  const auto dy = [&](std::int64_t t, std::int64_t n) { return std::fabs(in_dy.value_at(t * N + n)); };
  std::vector<Intermediate> path;
  if (dA) {
    double sdy = 0, sx = 0;
    for (std::int64_t t = 0; t < T; ++t) {
      for (std::int64_t n = 0; n < N; ++n) sdy = std::max(sdy, s * dy(t, n));
      sx = std::max(sx, s * x(t, i % cols));
    }
    path = {{"s·dy", sdy, true}, {"s·x", sx, true}};
  } else {
    const std::int64_t n = i / cols, j = i % cols;
    double h = 0, dyh = 0, dyTh = 0, sdy = 0, sx = 0, sA = 0;
    for (std::int64_t k = 0; k < K; ++k) sA = std::max(sA, s * std::fabs(in_A.value_at(j * K + k)));
    for (std::int64_t t = 0; t < T; ++t) {
      double ht = 0;
      for (std::int64_t k = 0; k < K; ++k) {
        ht += x(t, k) * std::fabs(in_A.value_at(j * K + k));
        sx = std::max(sx, s * x(t, k));
      }
      h = std::max(h, ht);
      dyh = std::max(dyh, dy(t, n) * ht);
      dyTh += dy(t, n) * ht;
      sdy = std::max(sdy, s * dy(t, n));
    }
    path = {{"h", h},       {"dy·h", dyh},       {"dy^T h", dyTh},  {"dB", s * dyTh},
            {"s·h", s * h}, {"s·dy", sdy, true}, {"s·x", sx, true}, {"s·A", sA, true}};
  }
  const Intermediate* named = nullptr;
  for (const Intermediate& m : path)
    if (m.peak >= (m.scaled_operand ? kF32RoundsToInf : kF32MaxFinite) && (!named || m.peak > named->peak)) named = &m;
  if (!named) return "an intermediate on its path may overflow float32 in some permitted order";
  if (named->scaled_operand)
    return std::string(named->name) + " reaches " + number_text(named->peak) +
           " and overflows float32 in some permitted order";
  return std::string(named->name) + " may reach " + number_text(named->peak) +
         " and overflow float32 in some permitted order";
}

// What an output's exempt elements and those that may overflow were.
std::string exempt_text(const std::string& name, const ops::OpCall& p, const Tensor& out, const Marks& m) {
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

// `p` with every element of B +0 (its layout kept), its values too.
ops::OpProblem with_zero_b(ops::OpProblem p) {
  Tensor& B = p.call.inputs.at("B");
  for (std::int64_t i = 0; i < B.numel(); ++i) B.set_value(i, 0.0);
  std::fill(p.values.inputs.at("B").begin(), p.values.inputs.at("B").end(), 0.0);
  return p;
}

}  // namespace

Verdict check_zero_adapter_gradients(const ops::OpProblem& problem, ops::OpSubject& s, ops::OpSubject*) {
  const ops::OpProblem zero = with_zero_b(problem);
  const ops::OpCall& p = zero.call;
  for (const char* name : {"x", "dy"})
    for (std::int64_t i = 0; i < p.input(name).numel(); ++i)
      if (!std::isfinite(p.input(name).value_at(i)))
        return Verdict::discard("zero_adapter_gradients", "x or dy holds a non-finite value (0 * Inf is NaN)");
  const ops::OpOutputs outputs = s.run(p);
  for (const char* name : {"dA", "dB"})
    if (const std::string why = invalid_output(name, outputs, zero.values.shapes.at(name)); !why.empty())
      return Verdict::fail("zero_adapter_gradients", why);
  const Tensor &gA = outputs.at("dA"), &gB = outputs.at("dB");
  const auto ref = backward_reference(zero.values, s.arithmetic());
  // dA = dh^T x with dh = s dy B = 0 is exactly 0 in every permitted order that does not overflow;
  // where one may (s·dy or s·x beyond float32 makes Inf * 0 = NaN), a non-finite dA is accepted
  // and a finite one must still be 0 (a product or sum keeps an Inf non-finite).
  const Reference dA{ref.at("dA")};
  const Marks ja = marks(gA, dA);
  for (std::int64_t i = 0; i < gA.numel(); ++i) {
    if (dA.accepted(i, gA.value_at(i))) continue;
    if (gA.value_at(i) != 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 but dA" + index_text(i, gA.shape()) + " = " +
                                                         number_text(gA.value_at(i)) + " (must be exactly 0)" +
                                                         exempt_text("dA", p, gA, ja));
  }
  // dB = s dy^T h: finite wherever no permitted order may overflow (finite x and dy, and an
  // exempt element not checked). Where the reference's |dB| exceeds twice its bound, the exact dB
  // and every evaluation within the bound of it are non-zero, so the subject's dB cannot be 0
  // unless it overflowed (then not finite, accepted where some order may).
  const Reference dB{ref.at("dB")};
  const Marks jb = marks(gB, dB);
  std::int64_t must_be_nonzero = 0;
  for (std::int64_t i = 0; i < gB.numel(); ++i) {
    const double got = gB.value_at(i);
    if (dB.accepted(i, got)) continue;
    if (!std::isfinite(got))
      return Verdict::fail("zero_adapter_gradients", "B = 0 and dB" + index_text(i, gB.shape()) + " = " +
                                                         number_text(got) +
                                                         " where no permitted order may overflow (s dy^T h there is " +
                                                         number_text(dB.value(i)) + ")" + exempt_text("dB", p, gB, jb));
    if (!(std::fabs(dB.value(i)) > 2 * dB.err(i))) continue;
    ++must_be_nonzero;
    if (got == 0.0)
      return Verdict::fail("zero_adapter_gradients", "B = 0 and dB" + index_text(i, gB.shape()) +
                                                         " = 0, but s dy^T h there is " + number_text(dB.value(i)));
  }
  const std::string exempt = exempt_text("dA", p, gA, ja) + exempt_text("dB", p, gB, jb);
  Verdict v = must_be_nonzero == 0
                  ? Verdict::discard("zero_adapter_gradients", "dB may legitimately vanish here" + exempt)
                  : Verdict::pass("zero_adapter_gradients", "dA exactly 0, dB non-zero wherever it must be" + exempt);
  v.metrics["grad_a_exempt"] = static_cast<double>(ja.exempt);
  v.metrics["grad_b_exempt"] = static_cast<double>(jb.exempt);
  v.metrics["grad_a_may_overflow"] = static_cast<double>(ja.may_overflow);
  v.metrics["grad_b_may_overflow"] = static_cast<double>(jb.may_overflow);
  return v;
}

Verdict check_base_frozen(const ops::OpProblem& p, ops::OpSubject& backward, ops::OpSubject* forward) {
  static const std::set<std::string> declared = {"dx", "dA", "dB"};
  const Tensor w_before = p.call.input("W");
  // Whether the W that `call` gave a subject still holds w_before's storage, padding included.
  const auto untouched = [&](const ops::OpCall& call) {
    const auto before = w_before.storage_bytes(), after = call.input("W").storage_bytes();
    return std::equal(before.begin(), before.end(), after.begin(), after.end());
  };
  if (forward) {
    ops::OpCall call = p.call;  // the forward's own operands (a copy of W, which it is checked on)
    call.inputs.erase("dy");
    call.output_dtypes = {{"y", DType::bf16}};
    static_cast<void>(forward->run(call));
    if (!untouched(call)) return Verdict::fail("base_frozen", "W's storage changed during the forward");
  }
  for (const auto& [name, t] : backward.run(p.call))
    if (!declared.contains(name))
      return Verdict::fail("base_frozen", name == "dW" ? "the subject returned a gradient dW for the frozen weight W"
                                                       : "the subject returned an output " + name +
                                                             " beyond dx, dA and dB (a gradient of the frozen W?)");
  if (!untouched(p.call)) return Verdict::fail("base_frozen", "W's storage changed during the backward");
  return Verdict::pass("base_frozen", forward ? "no dW; W untouched by the forward and the backward"
                                              : "no dW; W untouched by the backward");
}

}  // namespace parity::properties::lora
