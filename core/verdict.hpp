#pragma once
// The result of one property on one Case: holds, fails (with what and where), or discarded
// (the case could not exercise the property, e.g. a batch of one row for a batch-invariance
// check; RapidCheck counts it as discarded, never as a pass).
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include <parity/core/element_map.hpp>

namespace parity {

enum class Outcome { holds, fails, discarded };

// What kind of failure a failing verdict is. A shrinker keeps the kind it started from: a
// candidate that fails with another kind does not reproduce the failure. A new kind is named in
// one place, its row in verdict.cpp's table (in this order), and described in failure_kind_text.
enum class FailureKind {
  value,             // a wrong value (bits, a bound, a count)
  threw,             // the subject threw on a case inside the family's contract
  nondeterministic,  // the same inputs gave different results: replays run the case repeatedly
  invalid_case,      // a generated case outside the family's contract: a fault of parity's generator
  // The subject ended the worker process that ran it (properties/gen/case_worker.hpp), or failed in
  // a way after which its process cannot go on:
  crashed,        // a fatal signal other than SIGABRT (SIGSEGV, SIGBUS, SIGFPE, ...), or an exit mid-case
  aborted,        // SIGABRT: std::abort, a failed assert, std::terminate
  hung,           // no result within the per-case deadline (--timeout): the worker was killed
  device_fault,   // a sticky CUDA error (an illegal address, a device-side assert): the context is lost
  out_of_memory,  // an allocation failed under the worker's memory limit, or the OOM killer's SIGKILL
};

struct Verdict {
  std::string property;
  Outcome outcome = Outcome::holds;
  std::string detail;                     // what broke and where, or why discarded
  FailureKind kind = FailureKind::value;  // meaningful when outcome == fails
  std::map<std::string, double> metrics;  // e.g. max_abs, bound_utilisation
  std::optional<ElementMap> map;          // where a failing output went wrong, when the check can say

  bool holds() const { return outcome == Outcome::holds; }
  bool fails() const { return outcome == Outcome::fails; }

  static Verdict pass(std::string property, std::string detail = {});
  static Verdict fail(std::string property, std::string detail, FailureKind kind = FailureKind::value);
  static Verdict discard(std::string property, std::string why);

  friend bool operator==(const Verdict&, const Verdict&) = default;
};

std::string outcome_name(Outcome o);
// "value", "threw", "nondeterministic", "invalid_case", "crashed", "aborted", "hung",
// "device_fault", "out_of_memory": the JSON "failure" field.
std::string failure_kind_name(FailureKind k);
// The kind whose failure_kind_name is `name` (exactly: "value", not "Value"); nullopt for any other
// string. Every reader of a kind's name maps it back here.
std::optional<FailureKind> failure_kind_from_name(std::string_view name);
// Every kind, in declaration order.
std::span<const FailureKind> failure_kinds();
// The kind in words for a message, e.g. "the subject threw".
std::string failure_kind_text(FailureKind k);
// JSON: {"property", "outcome", "detail", "metrics"}, for a failure "failure" (its kind), and "map"
// (element_map_to_json) when the verdict has one; a malformed "map" is refused naming its field.
// A failure without "failure" (reproducers written before kinds existed) reads as "threw" when
// its detail starts "the subject threw", else as "value".
nlohmann::json verdict_to_json(const Verdict& v);
Verdict verdict_from_json(const nlohmann::json& j, const std::string& where = "verdict");

}  // namespace parity
