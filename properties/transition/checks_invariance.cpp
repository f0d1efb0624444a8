// The transition properties about determinism: batch_invariant and scoring_reproduces_sampling.
#include "core/compare.hpp"
#include "properties/transition/transition_problem.hpp"
#include "properties/transition/transition_properties.hpp"

namespace parity::properties::transition {

Verdict check_batch_invariant(const Case& c, TransitionSubject* s) {
  const TransitionProblem batched = materialise(c);
  const std::int64_t B = batched.in.x.dim(0), t = c.probe_row;
  if (B < 2) return Verdict::discard("batch_invariant", "batch of one row");
  if (!other_row_differs(batched.in.x, t) && !other_row_differs(batched.in.v, t))
    return Verdict::discard("batch_invariant", "every other row equals the probe row");
  const TransitionProblem single = single_row(c, batched, t);
  const auto in_batch = s->sample(batched.in);
  const auto alone = s->sample(single.in);
  const Tensor scored_in_batch = s->score(batched.in, in_batch.prev);
  const Tensor scored_alone = s->score(single.in, alone.prev);
  const Tensor prev = in_batch.prev.rows(t, t + 1), mean = in_batch.mean.rows(t, t + 1);
  const Tensor std_row = in_batch.std.rows(t, t + 1), logp = in_batch.logp.rows(t, t + 1),
               scored = scored_in_batch.rows(t, t + 1);
  const std::pair<const char*, std::pair<const Tensor*, const Tensor*>> pairs[] = {
      {"prev_sample", {&prev, &alone.prev}}, {"mean", {&mean, &alone.mean}}, {"std", {&std_row, &alone.std}},
      {"logp", {&logp, &alone.logp}},       {"scored logp", {&scored, &scored_alone}}};
  for (const auto& [name, ab] : pairs) {
    const BitwiseDiff d = compare_bitwise(*ab.first, *ab.second);
    if (!d.equal())
      return Verdict::fail("batch_invariant", "row " + std::to_string(t) + " of a " + std::to_string(B) +
                                                  "-row batch differs from the row alone: " + name + ": " +
                                                  d.describe(ab.first->shape()));
  }
  return Verdict::pass("batch_invariant", "row " + std::to_string(t) + " of " + std::to_string(B) +
                                              " equals the row alone; other rows differed");
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
