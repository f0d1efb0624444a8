#include <parity/properties/cross_backend/cross_backend.hpp>

#include <string>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace parity::properties::cross_backend {
namespace {

using Named = std::vector<std::pair<std::string, std::pair<const Tensor*, const Tensor*>>>;

Verdict judge(const Named& pairs) {
  std::string compared;
  for (const auto& [name, ab] : pairs) {
    const BitwiseDiff d = compare_bitwise(*ab.first, *ab.second);
    if (!d.equal())
      return Verdict::fail(kProperty, name + " differs from the host twin's: " + d.describe(ab.first->shape()));
    compared += (compared.empty() ? "" : ", ") + name;
  }
  return Verdict::pass(kProperty, compared + " bitwise equal to the host twin's");
}

}  // namespace

Verdict check_transition(const Case& c, subjects::TransitionSubject& subject, subjects::TransitionSubject& twin,
                         bool scoring) {
  const transition::TransitionProblem p = transition::materialise(c);
  const auto out = subject.sample(p.in), out_twin = twin.sample(p.in);
  Named pairs = {{"prev", {&out.prev, &out_twin.prev}},
                 {"mean", {&out.mean, &out_twin.mean}},
                 {"std", {&out.std, &out_twin.std}},
                 {"logp", {&out.logp, &out_twin.logp}}};
  if (!scoring) return judge(pairs);
  const Tensor scored = subject.score(p.in, out.prev), scored_twin = twin.score(p.in, out.prev);
  pairs.push_back({"score", {&scored, &scored_twin}});
  return judge(pairs);
}

}  // namespace parity::properties::cross_backend
