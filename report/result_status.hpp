#pragma once
// What a row of a parity JSON report says: holds, fails, skipped, or nothing recognisable. The
// rows come from every command (gate rows, probes, check and replay results, verdicts), so the
// fields are read generically and unknown ones are ignored.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parity::report {

enum class Status { holds, fails, skipped, unknown };

// "holds", "fails", "skipped", "unknown".
const char* status_name(Status s);

// The status of `row`, from the first of these members it has:
//   skipped (true: skipped), failed (a boolean: the --json results of check, probes, replay);
//   outcome, verdict, kind, status (a string: "holds", "pass", "passed", "ok", "detected", "passes_now"
//     hold; "fails", "fail", "failed", a failure kind's name (failure_kind_name: "value", "threw",
//     "crashed", ...), "flaky", "still_fails", "not_detected", "fault_of_parity" fail; "discarded",
//     "not_applicable", "skipped", "unavailable", "no_verdict" are skipped; `verdict` may also be an object, read the
//     same way);
//   passed, holds, ok, detected (a boolean);
//   detected_by (a probe: null is not detected, so fails; a property's name holds);
//   failures (an array: empty holds, non-empty fails).
// unknown when none of them says.
Status row_status(const nlohmann::json& row);

// Counts of the rows of `doc` by status: every object inside `doc`'s arrays, at any depth, except
// under a member named "findings" (a provider's results are reported, never counted as failures).
struct Tally {
  int holds = 0, fails = 0, skipped = 0;
  std::vector<const nlohmann::json*> failing;  // the failing rows, in document order (into `doc`)
  int total() const { return holds + fails + skipped; }
};
Tally tally_rows(const nlohmann::json& doc);

}  // namespace parity::report
