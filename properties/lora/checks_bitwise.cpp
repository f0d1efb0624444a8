// The bitwise LoRA properties: repeatable, rows_independent, batch_vs_batch, layout_invariant (each on forward and
// backward, or on forward alone for a subject without backward), base_frozen.
#include <algorithm>
#include <cmath>
#include <optional>

#include <parity/core/compare.hpp>
#include <parity/properties/batch_pair.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/lora_properties.hpp>

namespace parity::properties::lora {
namespace {

// What a subject is asked: forward alone (a subject without backward), or forward and backward.
enum class Calls { forward, both };

struct Outputs {
  Tensor y;
  std::optional<subjects::LoraGradients> g;  // with Calls::both
};

Outputs run(LoraSubject& s, const LoraProblem& p, Calls calls) {
  Outputs o;
  o.y = s.forward(p.in);
  if (calls == Calls::both) o.g = s.backward(p.in, p.dy);
  return o;
}

using NamedPairs = std::vector<std::pair<std::string, std::pair<const Tensor*, const Tensor*>>>;

// Compares named tensors; returns the first difference as text, or "" when all are equal.
std::string first_difference(const NamedPairs& pairs) {
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

// The first difference between two runs' y (and dx, dA, dB when both have gradients), or "".
std::string first_output_difference(const Outputs& a, const Outputs& b) {
  NamedPairs pairs = {{"y", {&a.y, &b.y}}};
  if (a.g && b.g)
    pairs.insert(pairs.end(),
                 {{"dx", {&a.g->dx, &b.g->dx}}, {"dA", {&a.g->dA, &b.g->dA}}, {"dB", {&a.g->dB, &b.g->dB}}});
  return first_difference(pairs);
}

// Appended to a passing verdict's text.
std::string note(Calls calls) { return calls == Calls::forward ? " (forward only)" : ""; }

Verdict repeatable(const Case& c, LoraSubject& s, Calls calls) {
  const LoraProblem p = materialise(c);
  const LoraProblem fresh = p;  // deep copies: new buffers, same bits
  const std::string diff = first_output_difference(run(s, p, calls), run(s, fresh, calls));
  if (!diff.empty()) return Verdict::fail("repeatable", "second run differs: " + diff, FailureKind::nondeterministic);
  return Verdict::pass("repeatable", (calls == Calls::both ? "y, dx, dA, dB" : "y") +
                                         std::string(" bitwise equal over two runs") + note(calls));
}

Verdict rows_independent(const Case& c, LoraSubject& s, Calls calls) {
  const LoraProblem batched = materialise(c);
  const std::int64_t T = batched.in.x.dim(0), t = c.probe_row;
  if (T < 2) return Verdict::discard("rows_independent", "batch of one row");
  if (!other_row_differs(batched.in.x, t) || (calls == Calls::both && !other_row_differs(batched.dy, t)))
    return Verdict::discard("rows_independent", "every other row of x or dy equals the probe row");

  const LoraProblem single = single_row(c, batched, t);
  const Outputs whole = run(s, batched, calls), alone = run(s, single, calls);
  const Tensor y_row = whole.y.rows(t, t + 1);
  NamedPairs pairs = {{"y", {&y_row, &alone.y}}};
  bool nothing_to_compare = all_nan(y_row);
  Tensor dx_row;
  if (calls == Calls::both) {
    dx_row = whole.g->dx.rows(t, t + 1);
    pairs.push_back({"dx", {&dx_row, &alone.g->dx}});
    nothing_to_compare = nothing_to_compare && all_nan(dx_row);
  }
  if (nothing_to_compare)
    return Verdict::discard("rows_independent", "the probe row's outputs are all NaN: nothing to compare");
  const std::string diff = first_difference(pairs);
  Verdict v =
      diff.empty()
          ? Verdict::pass("rows_independent", "row " + std::to_string(t) + " of " + std::to_string(T) +
                                                  " equals its single-row call; other rows differed" + note(calls))
          : Verdict::fail("rows_independent", "row " + std::to_string(t) + " of a " + std::to_string(T) +
                                                  "-row batch differs from the single-row call: " + diff);
  v.metrics["rows"] = static_cast<double>(T);
  return v;
}

Verdict batch_vs_batch(const Case& c, LoraSubject& s, Calls calls) {
  const std::int64_t T = c.dim("T"), other = other_rows(c), t = c.probe_row;
  if (const std::string why = batch_pair_unusable(T, other, t); !why.empty())
    return Verdict::discard("batch_vs_batch", why);
  const LoraProblem first = materialise(c), second = materialise(with_rows(c, other));
  const LoraProblem& fewer = other < T ? second : first;
  if (!other_row_differs(fewer.in.x, t) || (calls == Calls::both && !other_row_differs(fewer.dy, t)))
    return Verdict::discard("batch_vs_batch", "every other row of x or dy equals the probe row");
  const Outputs a = run(s, first, calls), b = run(s, second, calls);
  const Tensor ya = a.y.rows(t, t + 1), yb = b.y.rows(t, t + 1);
  NamedPairs pairs = {{"y", {&ya, &yb}}};
  bool nothing_to_compare = all_nan(ya);
  Tensor dxa, dxb;
  if (calls == Calls::both) {
    dxa = a.g->dx.rows(t, t + 1);
    dxb = b.g->dx.rows(t, t + 1);
    pairs.push_back({"dx", {&dxa, &dxb}});
    nothing_to_compare = nothing_to_compare && all_nan(dxa);
  }
  if (nothing_to_compare)
    return Verdict::discard("batch_vs_batch", "the probe row's outputs are all NaN: nothing to compare");
  const std::string diff = first_difference(pairs);
  const std::string batches = std::to_string(T) + "-row and " + std::to_string(other) + "-row batches";
  Verdict v = diff.empty() ? Verdict::pass("batch_vs_batch", "row " + std::to_string(t) + " is the same bits in " +
                                                                 batches + "; other rows differed" + note(calls))
                           : Verdict::fail("batch_vs_batch",
                                           "row " + std::to_string(t) + " differs between " + batches + ": " + diff);
  v.metrics["rows"] = static_cast<double>(T);
  v.metrics["other_rows"] = static_cast<double>(other);
  return v;
}

Verdict layout_invariant(const Case& c, LoraSubject& s, Calls calls) {
  const bool all_contiguous =
      std::all_of(c.layouts.begin(), c.layouts.end(), [](const auto& kv) { return kv.second.is_contiguous(); });
  if (all_contiguous) return Verdict::discard("layout_invariant", "every operand is contiguous");
  const LoraProblem strided = materialise(c);
  const std::string diff =
      first_output_difference(run(s, strided, calls), run(s, with_contiguous_layouts(strided), calls));
  if (!diff.empty()) return Verdict::fail("layout_invariant", "strided operands change the result: " + diff);
  return Verdict::pass("layout_invariant", "strided and contiguous operands give the same bits" + note(calls));
}

}  // namespace

Verdict check_repeatable(const Case& c, LoraSubject* s) { return repeatable(c, *s, Calls::both); }
Verdict check_repeatable_forward(const Case& c, LoraSubject* s) { return repeatable(c, *s, Calls::forward); }
Verdict check_rows_independent(const Case& c, LoraSubject* s) { return rows_independent(c, *s, Calls::both); }
Verdict check_rows_independent_forward(const Case& c, LoraSubject* s) {
  return rows_independent(c, *s, Calls::forward);
}
Verdict check_batch_vs_batch(const Case& c, LoraSubject* s) { return batch_vs_batch(c, *s, Calls::both); }
Verdict check_batch_vs_batch_forward(const Case& c, LoraSubject* s) { return batch_vs_batch(c, *s, Calls::forward); }
Verdict check_layout_invariant(const Case& c, LoraSubject* s) { return layout_invariant(c, *s, Calls::both); }
Verdict check_layout_invariant_forward(const Case& c, LoraSubject* s) {
  return layout_invariant(c, *s, Calls::forward);
}

Verdict check_base_frozen(const Case& c, LoraSubject* s) {
  const LoraProblem p = materialise(c);
  const Tensor w_before = p.in.W;
  const Outputs o = run(*s, p, Calls::both);
  if (o.g->dW.has_value())
    return Verdict::fail("base_frozen", "the subject returned a gradient for the frozen weight W");
  const auto before = w_before.storage_bytes(), after = p.in.W.storage_bytes();
  if (!std::equal(before.begin(), before.end(), after.begin(), after.end()))
    return Verdict::fail("base_frozen", "W's storage changed during forward + backward");
  return Verdict::pass("base_frozen", "no dW; W untouched");
}

}  // namespace parity::properties::lora
