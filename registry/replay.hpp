#pragma once
// Replays reproducers (core/reproducer.hpp) against the subjects of every family this program
// knows (registry/families.hpp): `parity replay` and a user's property test
// (`<target>_parity_tests --replay`, which also knows the user's subjects) are both this function.
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <parity/core/reproducer.hpp>
#include <parity/core/verdict.hpp>
#include <parity/properties/gen/case_worker.hpp>

namespace parity::registry {

// What replaying one reproducer found.
struct ReplayOutcome {
  std::string file;
  Reproducer reproducer;
  std::string subject;  // the subject it ran on: the recorded one, or the override
  std::string status;   // passes_now, still_fails, flaky, discarded, fault_of_parity
  Verdict verdict;      // the first failing run's, else the last run's
  int runs = 1;
  int failures = 0;  // runs that failed; still failing while > 0
};

// The reproducer files `inputs` name: each file, and for a directory every *.json in it (sorted).
// Throws InputError naming an input that does not exist or a directory that holds none.
std::vector<std::filesystem::path> reproducer_files(const std::vector<std::string>& inputs);

// Re-runs each reproducer's property on its subject, or on `subject` when given, and prints per
// reproducer "STILL FAILS", "passes now" or "discarded" with its case and verdict, then "N of M
// reproducers still fail". A reproducer of a nondeterministic failure (its observed verdict's
// kind) runs 20 times and prints "flaky: failed k of 20" (still failing while k > 0) or
// "passes now (20 runs)". `inputs`: files, or directories standing for every *.json in them.
// Every file is read before anything runs. Returns how many still fail; appends each
// reproducer's outcome to `outcomes` when given. Throws InputError naming the file for a missing
// or bad file, an unknown family, subject or property or a subject that cannot run here, and
// NotApplicable (core/error.hpp) naming it for a property that does not apply to the subject.
// `worker`, when given, runs each case (properties/gen/case_worker.hpp): a reproducer of a crash
// replays to the same kind instead of ending this process.
int replay_reproducers(const std::vector<std::string>& inputs, const std::optional<std::string>& subject,
                       std::ostream& out, std::vector<ReplayOutcome>* outcomes = nullptr,
                       gen::CaseWorker* worker = nullptr);

}  // namespace parity::registry
