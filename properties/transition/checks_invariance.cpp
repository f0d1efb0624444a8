// The transition properties about determinism: batch_invariant, batch_vs_batch and
// scoring_reproduces_sampling.
#include <parity/core/compare.hpp>
#include <parity/properties/batch_pair.hpp>
#include <parity/properties/transition/transition_problem.hpp>
#include <parity/properties/transition/transition_properties.hpp>

namespace parity::properties::transition {

namespace {

using Pair = std::pair<const char*, std::pair<const Tensor*, const Tensor*>>;

// Row t of a sampled and scored batch: prev, mean, std, logp, scored logp.
struct RowOutputs {
  Tensor prev, mean, std, logp, scored;
};

RowOutputs row_outputs(TransitionSubject& s, const TransitionProblem& p, std::int64_t t) {
  const auto sampled = s.sample(p.in);
  const Tensor scored = s.score(p.in, sampled.prev);
  return {sampled.prev.rows(t, t + 1), sampled.mean.rows(t, t + 1), sampled.std.rows(t, t + 1),
          sampled.logp.rows(t, t + 1), scored.rows(t, t + 1)};
}

// The first output that differs between a and b, as "name: difference", or "".
std::string first_difference(const RowOutputs& a, const RowOutputs& b) {
  const Pair pairs[] = {{"prev_sample", {&a.prev, &b.prev}},
                        {"mean", {&a.mean, &b.mean}},
                        {"std", {&a.std, &b.std}},
                        {"logp", {&a.logp, &b.logp}},
                        {"scored logp", {&a.scored, &b.scored}}};
  for (const auto& [name, ab] : pairs) {
    const BitwiseDiff d = compare_bitwise(*ab.first, *ab.second);
    if (!d.equal()) return std::string(name) + ": " + d.describe(ab.first->shape());
  }
  return {};
}

}  // namespace

Verdict check_batch_invariant(const Case& c, TransitionSubject* s) {
  const TransitionProblem batched = materialise(c);
  const std::int64_t B = batched.in.x.dim(0), t = c.probe_row;
  if (B < 2) return Verdict::discard("batch_invariant", "batch of one row");
  if (!other_row_differs(batched.in.x, t) && !other_row_differs(batched.in.v, t))
    return Verdict::discard("batch_invariant", "every other row equals the probe row");
  const std::string diff = first_difference(row_outputs(*s, batched, t), row_outputs(*s, single_row(c, batched, t), 0));
  if (!diff.empty())
    return Verdict::fail("batch_invariant", "row " + std::to_string(t) + " of a " + std::to_string(B) +
                                                "-row batch differs from the row alone: " + diff);
  return Verdict::pass("batch_invariant", "row " + std::to_string(t) + " of " + std::to_string(B) +
                                              " equals the row alone; other rows differed");
}

Verdict check_batch_vs_batch(const Case& c, TransitionSubject* s) {
  const std::int64_t B = c.dim("B"), other = other_rows(c), t = c.probe_row;
  if (const std::string why = batch_pair_unusable(B, other, t); !why.empty())
    return Verdict::discard("batch_vs_batch", why);
  const TransitionProblem first = materialise(c), second = materialise(with_rows(c, other));
  const TransitionProblem& fewer = other < B ? second : first;
  if (!other_row_differs(fewer.in.x, t) && !other_row_differs(fewer.in.v, t))
    return Verdict::discard("batch_vs_batch", "every other row equals the probe row");
  const std::string diff = first_difference(row_outputs(*s, first, t), row_outputs(*s, second, t));
  const std::string batches = std::to_string(B) + "-row and " + std::to_string(other) + "-row batches";
  Verdict v =
      diff.empty()
          ? Verdict::pass("batch_vs_batch",
                          "row " + std::to_string(t) + " is the same bits in " + batches + "; other rows differed")
          : Verdict::fail("batch_vs_batch", "row " + std::to_string(t) + " differs between " + batches + ": " + diff);
  v.metrics["rows"] = static_cast<double>(B);
  v.metrics["other_rows"] = static_cast<double>(other);
  return v;
}

Verdict check_scoring_reproduces_sampling(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const auto sampled = s->sample(p.in);
  const Tensor scored = s->score(p.in, sampled.prev);
  const BitwiseDiff d = compare_bitwise(scored, sampled.logp);
  if (!d.equal())
    return Verdict::fail("scoring_reproduces_sampling",
                         "scoring the sampled prev_sample gives another log-prob: " + d.describe(scored.shape()));
  return Verdict::pass("scoring_reproduces_sampling", "scored and sampled log-probs bitwise equal");
}

}  // namespace parity::properties::transition
