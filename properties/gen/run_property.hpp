#pragma once
// Runs one property of one subject over generated Cases with RapidCheck, shrinks a failure to
// a minimal Case, writes it as a reproducer before reporting, and prints the one command
// that replays it. The shrunk case is run once more; if it does not fail again the message
// says the subject is nondeterministic. Used by the ctest executables and `parity check`.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include <rapidcheck.h>

#include "core/case.hpp"
#include "core/verdict.hpp"

namespace parity::gen {

struct RunConfig {
  int cases = 0;                 // 0: default_case_count()
  std::optional<std::uint64_t> seed = {};  // absent: default_seed()
  bool shrink = true;
  bool write_reproducer = true;
  std::filesystem::path repro_dir = {};  // empty: default_repro_dir()
  std::ostream* progress = nullptr;  // a progress line every few cases, when set
  // The command that replays a reproducer when given its path (gen/replay.hpp): a program
  // that knows the subject, e.g. a user's property test's "<program> --replay".
  std::string replay_command = "parity replay";
};

struct RunResult {
  bool passed = false;
  int cases = 0;        // cases that ran to a verdict
  int discarded = 0;
  std::uint64_t seed = 0;
  std::optional<Case> counterexample;  // the shrunk minimal failing case
  std::optional<Verdict> verdict;      // its verdict
  std::optional<std::filesystem::path> reproducer;
  std::string message;                 // one paragraph for a human: what failed and how to replay
  // Non-empty: the property does not apply to the subject (why, e.g. "the subject has no
  // backward"); nothing ran and passed is false. Callers report it as not applicable.
  std::string not_applicable;
};

// The result of a property that does not apply to `subject`, saying why.
RunResult not_applicable_result(const std::string& subject, const std::string& property, const std::string& why);

// Evaluates one Case. Must be deterministic in the Case.
using CaseCheck = std::function<Verdict(const Case&)>;

// Runs `check` over `cases` generated Cases. `subject` and `property` name the reproducer.
RunResult run_property(const std::string& subject, const std::string& property,
                       const rc::Gen<Case>& gen, const CaseCheck& check, const RunConfig& config);

// Generated cases per property when neither RunConfig::cases nor $PARITY_CASES says: what
// `ctest -L properties` runs (bench/README.md measures what it detects).
inline constexpr int kDefaultCasesPerProperty = 25;

// $PARITY_CASES if set (a positive integer), else `fallback`.
int default_case_count(int fallback);
// The seed: RC_PARAMS' seed=, else $PARITY_SEED, else a fixed default (so a plain ctest run
// is reproducible; fuzzing runners set PARITY_SEED to explore).
std::uint64_t default_seed();

}  // namespace parity

// Lets RapidCheck print a Case in its counterexample output.
namespace parity {
void showValue(const Case& c, std::ostream& os);
}
