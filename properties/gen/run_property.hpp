#pragma once
// Runs one property of one subject over generated Cases with RapidCheck, shrinks a failure to
// a minimal Case, writes it as a reproducer before reporting, and prints the command that
// reruns the run exactly and the one that replays the reproducer. Used by the ctest
// executables and `parity check`.
//
// Failures have a kind (FailureKind): a wrong value, the subject threw, nondeterminism, a
// generated case outside the family's contract (checked before the subject runs: parity's own
// fault), and, where the cases run in a supervised worker (RunConfig::worker), a crash, an abort,
// a hang, a device fault or running out of memory, each shrunk in fresh workers. Shrinking keeps the kind of the first
// failure: a candidate that fails with another kind does not reproduce it. After RapidCheck's shrink, whose steps
// follow the generator's structure (2^k + d tokens shrinks to 255, never to 1), each dimension descends further
// (case_shrink.hpp: towards 0, halving and decrement among the candidates, each conformed to
// and checked against the family's CaseRules) to a local minimum: no smaller value tried
// reproduces the failure. The shrunk case is run once more; if it does not fail again, the
// failure is nondeterministic (the reproducer says so, and replays run it repeatedly).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/properties/gen/case_restrictions.hpp>
#include <parity/properties/gen/case_rules.hpp>
#include <parity/properties/gen/case_worker.hpp>
#include <parity/properties/gen/extent_caps.hpp>

namespace parity::gen {

struct RunConfig {
  int cases = 0;                           // 0: default_case_count()
  std::optional<std::uint64_t> seed = {};  // absent: default_seed()
  bool shrink = true;
  bool write_reproducer = true;
  std::filesystem::path repro_dir = {};  // empty: default_repro_dir()
  std::ostream* progress = nullptr;      // a progress line every few cases, when set
  // The command that replays a reproducer when given its path (registry/replay.hpp): a program
  // that knows the subject, e.g. a user's property test's "<program> --replay".
  std::string replay_command = "parity replay";
  // The largest extents the family's generator draws, by extent name (extent_caps.hpp): these
  // override the defaults and $PARITY_MAX_<EXTENT>. A family that caps no extent refuses any.
  ExtentMaxima max_extents = {};
  // The command that reruns `property` exactly, given the seed and the case count (both are
  // needed: RapidCheck's size schedule depends on the count); a command that returns "" means
  // no command reruns the run (a generator other than the family's), and no rerun line is
  // printed. Unset: "parity check FAMILY --subject S --property P --cases N --seed X", then
  // --max EXT=V,... for the entries of max_extents, restrictions' --dtypes and --param, and
  // subject_flags, after RC_PARAMS='...' when RC_PARAMS is set. A run from a generator with other caps than the
  // family's must set it.
  std::function<std::string(const std::string& property, std::uint64_t seed, int cases)> rerun_command = {};
  // Flags the subject needs on the default rerun command line (a torch operator's --torch-op
  // ...: ops/torch_op/torch_op.hpp's torch_op_flag_words), with a leading space; "" for none.
  std::string subject_flags = {};
  // An op family's cases restricted to some dtypes and fixed parameters (case_restrictions.hpp),
  // on the default rerun line as --dtypes and --param; another family refuses them.
  CaseRestrictions restrictions = {};
  // Where each case's check runs: null, in this process (the check given to run_property); else in
  // this supervised worker (case_worker.hpp), as Family::check(subject, property, case) of the
  // case's family, so that a crash, an abort, a hang or a lost CUDA context is the case's verdict.
  // Set it only for runs whose check is that family's Family::check (every Family::run's is).
  std::shared_ptr<CaseWorker> worker = {};
};

struct RunResult {
  bool passed = false;
  int cases = 0;  // cases that ran to a verdict
  int discarded = 0;
  std::uint64_t seed = 0;
  int case_count = 0;                  // the cases asked for: with the seed, what reruns this run
  std::string rerun;                   // on a failure: the command that reruns this run exactly; "" when none does
  std::optional<Case> counterexample;  // the shrunk minimal failing case
  std::optional<Verdict> verdict;      // its verdict
  std::optional<std::filesystem::path> reproducer;
  std::string message;  // one paragraph for a human: what failed and how to replay
  // Non-empty: the property does not apply to the subject (why, e.g. "the subject has no
  // backward"); nothing ran and passed is false. Callers report it as not applicable.
  std::string not_applicable;
};

// The result of a property that does not apply to `subject`, saying why.
RunResult not_applicable_result(const std::string& subject, const std::string& property, const std::string& why);

// Evaluates one Case. Must be deterministic in the Case.
using CaseCheck = std::function<Verdict(const Case&)>;

// Runs `check` over `cases` generated Cases of the family whose `rules` they follow. `subject`
// and `property` name the reproducer.
RunResult run_property(const std::string& subject, const std::string& property, const rc::Gen<Case>& gen,
                       const CaseCheck& check, const RunConfig& config, const CaseRules& rules);

// Generated cases per property when neither RunConfig::cases nor $PARITY_CASES says: what
// `ctest -L properties` runs (bench/README.md measures what it detects).
inline constexpr int kDefaultCasesPerProperty = 25;

// $PARITY_CASES if set and non-empty (plain decimal in [1, 10^8], core/decimal.hpp), else
// `fallback`; throws InputError naming PARITY_CASES for any other value.
int default_case_count(int fallback);
// The seed: RC_PARAMS' seed=, else $PARITY_SEED (plain decimal in [0, 2^64 - 1]), else a fixed
// default (so a plain ctest run is reproducible; fuzzing runners set PARITY_SEED to explore).
// Throws InputError naming RC_PARAMS or PARITY_SEED for a value RapidCheck or parity refuses.
std::uint64_t default_seed();
// Throws InputError naming RC_PARAMS when RapidCheck cannot read it (RapidCheck itself would
// print a message and exit 1 on first use).
void check_rc_params();
// Every environment variable a run reads (PARITY_CASES, PARITY_SEED, RC_PARAMS,
// PARITY_THREADS, PARITY_TIMEOUT), checked before any work: throws InputError naming the first bad one.
void check_environment();

}  // namespace parity::gen

// Lets RapidCheck print a Case in its counterexample output.
namespace parity {
void showValue(const Case& c, std::ostream& os);
}
