#pragma once
// One result of `parity check`, `probes` or `replay` as the machine-readable outputs write it
// (cli/result_outputs.hpp): what ran (family, property, subject), how it ended, and how to see
// it again (the shrunk case, the reproducer and the commands that replay and rerun it).
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>

namespace parity::cli {

struct ResultRecord {
  std::string family;
  std::string property;  // empty: none (a probe that no property detected)
  std::string subject;
  // check: holds, fails, no_verdict, not_applicable; probes: detected, not_detected; replay:
  // passes_now, still_fails, flaky, discarded, fault_of_parity.
  std::string status = {};
  bool failed = false;                    // counts against the command's exit status
  bool skipped = false;                   // nothing was judged (not applicable, discarded)
  std::optional<FailureKind> kind = {};   // the verdict's failure kind, when it failed
  std::optional<Case> failing_case = {};  // the (shrunk) case the verdict is about
  std::string detail = {};                // the verdict's words, or why nothing ran
  std::optional<ElementMap> map = {};     // the verdict's element map, when it has one
  std::optional<std::filesystem::path> reproducer = {};
  std::string rerun = {};  // the command that reruns the run; "" when none does
  int cases = 0;           // cases that ran to a verdict
  int discarded = 0;
  nlohmann::json extra = nlohmann::json::object();  // the command's own fields (probes: detected_by, ...)
};

// The command that replays `reproducer`: "parity replay PATH".
std::string replay_command(const std::filesystem::path& reproducer);

// {"family", "property" (null when empty), "subject", "status", "failed", "skipped", "kind"
// (failure_kind_name, or null), "case" (case_to_json, or null), "case_summary", "detail",
// "reproducer", "replay" (both null without a reproducer), "rerun" (null when empty), "cases",
// "discarded"}, "map" (element_map_to_json) when the record has one, and the extra fields.
nlohmann::json result_json(const ResultRecord& r);

}  // namespace parity::cli
