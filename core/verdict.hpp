#pragma once
// The result of one property on one Case: holds, fails (with what and where), or discarded
// (the case could not exercise the property, e.g. a batch of one row for a batch-invariance
// check; RapidCheck counts it as discarded, never as a pass).
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace parity {

enum class Outcome { holds, fails, discarded };

struct Verdict {
  std::string property;
  Outcome outcome = Outcome::holds;
  std::string detail;                      // what broke and where, or why discarded
  std::map<std::string, double> metrics;   // e.g. max_abs, bound_utilisation

  bool holds() const { return outcome == Outcome::holds; }
  bool fails() const { return outcome == Outcome::fails; }

  static Verdict pass(std::string property, std::string detail = {});
  static Verdict fail(std::string property, std::string detail);
  static Verdict discard(std::string property, std::string why);

  friend bool operator==(const Verdict&, const Verdict&) = default;
};

std::string outcome_name(Outcome o);
nlohmann::json verdict_to_json(const Verdict& v);
Verdict verdict_from_json(const nlohmann::json& j, const std::string& where = "verdict");

}  // namespace parity
