// The bitwise LoRA properties: repeatable, rows_independent, layout_invariant, base_frozen.
#include <algorithm>
#include <cmath>

#include "core/compare.hpp"
#include "properties/lora/lora_problem.hpp"
#include "properties/lora/lora_properties.hpp"

namespace parity::properties::lora {
namespace {

struct Outputs {
  Tensor y;
  subjects::LoraGradients g;
};

Outputs run_both(LoraSubject& s, const LoraProblem& p) {
  Outputs o;
  o.y = s.forward(p.in);
  o.g = s.backward(p.in, p.dy);
  return o;
}

// Compares named tensors; returns the first difference as text, or "" when all are equal.
std::string first_difference(const std::vector<std::pair<std::string, std::pair<const Tensor*, const Tensor*>>>& pairs) {
  for (const auto& [name, ab] : pairs) {
    const BitwiseDiff d = compare_bitwise(*ab.first, *ab.second);
    if (!d.equal()) return name + ": " + d.describe(ab.first->shape());
  }
  return {};
}

bool all_nan(const Tensor& t) {
  for (std::int64_t i = 0; i < t.numel(); ++i)
    if (!std::isnan(t.value_at(i))) return false;
  return true;
}

// The first difference between two runs' y, dx, dA, dB, or "" when all are equal.
std::string first_output_difference(const Outputs& a, const Outputs& b) {
  return first_difference(
      {{"y", {&a.y, &b.y}}, {"dx", {&a.g.dx, &b.g.dx}}, {"dA", {&a.g.dA, &b.g.dA}}, {"dB", {&a.g.dB, &b.g.dB}}});
}

}  // namespace

Verdict check_repeatable(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const LoraProblem fresh = p;  // deep copies: new buffers, same bits
  const Outputs a = run_both(*s, p);
  const Outputs b = run_both(*s, fresh);
  const std::string diff = first_output_difference(a, b);
  if (!diff.empty()) return Verdict::fail("repeatable", "second run differs: " + diff);
  return Verdict::pass("repeatable", "y, dx, dA, dB bitwise equal over two runs");
}

Verdict check_rows_independent(const Case& c, LoraSubject* s) {
  const LoraProblem batched = materialise(c);
  const std::int64_t T = batched.in.x.dim(0), t = c.probe_row;
  if (T < 2) return Verdict::discard("rows_independent", "batch of one row");
  if (!other_row_differs(batched.in.x, t) || !other_row_differs(batched.dy, t))
    return Verdict::discard("rows_independent", "every other row of x or dy equals the probe row");

  const LoraProblem single = single_row(c, batched, t);
  const Tensor y_batch = s->forward(batched.in), y_single = s->forward(single.in);
  const auto g_batch = s->backward(batched.in, batched.dy);
  const auto g_single = s->backward(single.in, single.dy);
  const Tensor y_row = y_batch.rows(t, t + 1), dx_row = g_batch.dx.rows(t, t + 1);
  if (all_nan(y_row) && all_nan(dx_row))
    return Verdict::discard("rows_independent", "the probe row's outputs are all NaN: nothing to compare");
  const std::string diff = first_difference({{"y", {&y_row, &y_single}}, {"dx", {&dx_row, &g_single.dx}}});
  Verdict v = diff.empty() ? Verdict::pass("rows_independent",
                                           "row " + std::to_string(t) + " of " + std::to_string(T) +
                                               " equals its single-row call; other rows differed")
                           : Verdict::fail("rows_independent",
                                           "row " + std::to_string(t) + " of a " + std::to_string(T) +
                                               "-row batch differs from the single-row call: " + diff);
  v.metrics["rows"] = static_cast<double>(T);
  return v;
}

Verdict check_layout_invariant(const Case& c, LoraSubject* s) {
  const bool all_contiguous = std::all_of(c.layouts.begin(), c.layouts.end(),
                                          [](const auto& kv) { return kv.second.is_contiguous(); });
  if (all_contiguous) return Verdict::discard("layout_invariant", "every operand is contiguous");
  const LoraProblem strided = materialise(c);
  const Outputs a = run_both(*s, strided);
  const Outputs b = run_both(*s, with_contiguous_layouts(strided));
  const std::string diff = first_output_difference(a, b);
  if (!diff.empty()) return Verdict::fail("layout_invariant", "strided operands change the result: " + diff);
  return Verdict::pass("layout_invariant", "strided and contiguous operands give the same bits");
}

Verdict check_base_frozen(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const Tensor w_before = p.in.W;
  const Outputs o = run_both(*s, p);
  if (o.g.dW.has_value())
    return Verdict::fail("base_frozen", "the subject returned a gradient for the frozen weight W");
  const auto before = w_before.storage_bytes(), after = p.in.W.storage_bytes();
  if (!std::equal(before.begin(), before.end(), after.begin(), after.end()))
    return Verdict::fail("base_frozen", "W's storage changed during forward + backward");
  return Verdict::pass("base_frozen", "no dW; W untouched");
}

}  // namespace parity::properties::lora
