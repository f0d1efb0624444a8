#include "core/verdict.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_read.hpp"

namespace parity {

using nlohmann::json;
namespace jr = json_read;

Verdict Verdict::pass(std::string property, std::string detail) {
  return {std::move(property), Outcome::holds, std::move(detail), {}};
}
Verdict Verdict::fail(std::string property, std::string detail) {
  return {std::move(property), Outcome::fails, std::move(detail), {}};
}
Verdict Verdict::discard(std::string property, std::string why) {
  return {std::move(property), Outcome::discarded, std::move(why), {}};
}

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::holds: return "holds";
    case Outcome::fails: return "fails";
    case Outcome::discarded: return "discarded";
  }
  return "?";
}

json verdict_to_json(const Verdict& v) {
  json j = {{"property", v.property}, {"outcome", outcome_name(v.outcome)}, {"detail", v.detail}};
  j["metrics"] = json::object();
  for (const auto& [k, m] : v.metrics) j["metrics"][k] = jr::finite_or_text(m);
  return j;
}

Verdict verdict_from_json(const json& j, const std::string& where) {
  Verdict v;
  v.property = jr::as_string(jr::member(j, where, "property"), where + ".property");
  const std::string o = jr::as_string(jr::member(j, where, "outcome"), where + ".outcome");
  if (o == "holds") v.outcome = Outcome::holds;
  else if (o == "fails") v.outcome = Outcome::fails;
  else if (o == "discarded") v.outcome = Outcome::discarded;
  else throw InputError(where + ".outcome: expected holds, fails or discarded");
  if (const json* d = jr::optional_member(j, where, "detail")) v.detail = jr::as_string(*d, where + ".detail");
  if (const json* m = jr::optional_member(j, where, "metrics")) {
    jr::require_object(*m, where + ".metrics");
    for (const auto& [k, x] : m->items()) v.metrics[k] = jr::as_double(x, where + ".metrics." + k);
  }
  return v;
}

}  // namespace parity
