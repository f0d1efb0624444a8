#include <parity/core/verdict.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <utility>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/json_read.hpp>

namespace parity {

using nlohmann::json;
namespace jr = json_read;

Verdict Verdict::pass(std::string property, std::string detail) {
  return {std::move(property), Outcome::holds, std::move(detail), FailureKind::value, {}, {}};
}
Verdict Verdict::fail(std::string property, std::string detail, FailureKind kind) {
  return {std::move(property), Outcome::fails, std::move(detail), kind, {}, {}};
}
Verdict Verdict::discard(std::string property, std::string why) {
  return {std::move(property), Outcome::discarded, std::move(why), FailureKind::value, {}, {}};
}

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::holds:
      return "holds";
    case Outcome::fails:
      return "fails";
    case Outcome::discarded:
      return "discarded";
  }
  return "?";
}

namespace {

constexpr std::pair<FailureKind, const char*> kKinds[] = {{FailureKind::value, "value"},
                                                          {FailureKind::threw, "threw"},
                                                          {FailureKind::nondeterministic, "nondeterministic"},
                                                          {FailureKind::invalid_case, "invalid_case"},
                                                          {FailureKind::crashed, "crashed"},
                                                          {FailureKind::aborted, "aborted"},
                                                          {FailureKind::hung, "hung"},
                                                          {FailureKind::device_fault, "device_fault"},
                                                          {FailureKind::out_of_memory, "out_of_memory"}};

// Rows in declaration order, so that a kind's row is its value and failure_kinds() is the enum's order.
constexpr bool in_declaration_order() {
  for (std::size_t i = 0; i < std::size(kKinds); ++i)
    if (static_cast<std::size_t>(kKinds[i].first) != i) return false;
  return true;
}
static_assert(in_declaration_order(), "kKinds lists every FailureKind once, in declaration order");

constexpr auto kKindList = [] {
  std::array<FailureKind, std::size(kKinds)> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = kKinds[i].first;
  return out;
}();

// "a, b, ... or z": every kind's JSON name, for a refusal.
std::string kind_names() {
  std::string out;
  const std::size_t n = std::size(kKinds);
  for (std::size_t i = 0; i < n; ++i) out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(kKinds[i].second);
  return out;
}

}  // namespace

std::string failure_kind_name(FailureKind k) {
  for (const auto& [kind, name] : kKinds)
    if (kind == k) return name;
  return "?";
}

std::optional<FailureKind> failure_kind_from_name(std::string_view name) {
  for (const auto& [kind, kind_name] : kKinds)
    if (name == kind_name) return kind;
  return std::nullopt;
}

std::span<const FailureKind> failure_kinds() { return kKindList; }

std::string failure_kind_text(FailureKind k) {
  switch (k) {
    case FailureKind::value:
      return "a wrong value";
    case FailureKind::threw:
      return "the subject threw";
    case FailureKind::nondeterministic:
      return "nondeterminism";
    case FailureKind::invalid_case:
      return "a generated case outside the family's contract";
    case FailureKind::crashed:
      return "the subject crashed";
    case FailureKind::aborted:
      return "the subject aborted";
    case FailureKind::hung:
      return "the subject hung";
    case FailureKind::device_fault:
      return "a device fault";
    case FailureKind::out_of_memory:
      return "out of memory";
  }
  return "?";
}

json verdict_to_json(const Verdict& v) {
  json j = {{"property", v.property}, {"outcome", outcome_name(v.outcome)}, {"detail", v.detail}};
  if (v.fails()) j["failure"] = failure_kind_name(v.kind);
  j["metrics"] = json::object();
  for (const auto& [k, m] : v.metrics) j["metrics"][k] = jr::finite_or_text(m);
  if (v.map) j["map"] = element_map_to_json(*v.map);
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
  if (const json* f = jr::optional_member(j, where, "failure")) {
    const std::optional<FailureKind> kind = failure_kind_from_name(jr::as_string(*f, where + ".failure"));
    if (!kind) throw InputError(where + ".failure: expected " + kind_names());
    v.kind = *kind;
  } else if (v.detail.starts_with("the subject threw")) {
    v.kind = FailureKind::threw;
  }
  if (const json* m = jr::optional_member(j, where, "metrics")) {
    jr::require_object(*m, where + ".metrics");
    for (const auto& [k, x] : m->items()) v.metrics[k] = jr::as_double(x, where + ".metrics." + k);
  }
  if (const json* m = jr::optional_member(j, where, "map")) v.map = element_map_from_json(*m, where + ".map");
  return v;
}

}  // namespace parity
