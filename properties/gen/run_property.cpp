#include <parity/properties/gen/run_property.hpp>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <unordered_map>

#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/exception_kind.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/core/thread_count.hpp>
#include <parity/properties/gen/case_shrink.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>

namespace parity::gen {
namespace {

constexpr std::uint64_t kDefaultSeed = 0x5EED0F9A41717ull;
// Checks the descent after RapidCheck's shrink may spend: each dimension halves in a few
// steps, each step tries at most ~log2(extent) candidates per dimension.
constexpr int kLocalMinimumChecks = 300;
// Candidates that may hang while a hang is shrunk: each costs the whole per-case deadline.
constexpr int kMaxHungCandidates = 16;
constexpr std::uint64_t kMaxEnvCases = 100000000;

// `text` in single quotes for a POSIX shell.
std::string shell_quoted(const std::string& text) {
  std::string q = "'";
  for (const char ch : text) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// " --max EXT=N,EXT=N" for the caps (the flag every family's extents take; op extents have no
// --max-EXT of their own), "" for none.
std::string max_flags(const ExtentMaxima& maxima) {
  std::string items;
  for (const auto& [extent, max] : maxima) items += (items.empty() ? "" : ",") + extent + "=" + std::to_string(max);
  return items.empty() ? "" : " --max " + items;
}

}  // namespace

int default_case_count(int fallback) {
  if (const auto n = env_decimal("PARITY_CASES", 1, kMaxEnvCases)) return static_cast<int>(*n);
  return fallback;
}

std::uint64_t default_seed() {
  if (const char* rc = std::getenv("RC_PARAMS"); rc && std::string(rc).find("seed=") != std::string::npos) {
    check_rc_params();
    return rc::detail::configuration().testParams.seed;
  }
  return env_decimal("PARITY_SEED", 0, UINT64_MAX).value_or(kDefaultSeed);
}

void check_rc_params() {
  const char* rc = std::getenv("RC_PARAMS");
  if (!rc) return;
  try {
    rc::detail::configFromString(rc);
  } catch (const rc::detail::ConfigurationException& e) {
    throw InputError(std::string("RC_PARAMS: ") + e.what());
  }
}

void check_environment() {
  default_case_count(1);
  default_seed();
  check_rc_params();
  thread_count();
  default_case_timeout();
}

RunResult not_applicable_result(const std::string& subject, const std::string& property, const std::string& why) {
  RunResult result;
  result.not_applicable = why;
  result.message = property + " does not apply to " + subject + ": " + why;
  return result;
}

RunResult run_property(const std::string& subject, const std::string& property, const rc::Gen<Case>& gen,
                       const CaseCheck& check, const RunConfig& config, const CaseRules& rules) {
  RunResult result;
  result.seed = config.seed.value_or(default_seed());
  const int cases = config.cases > 0 ? config.cases : default_case_count(kDefaultCasesPerProperty);
  result.case_count = cases;

  // Contract first: a generated case outside it is parity's fault, never the subject's.
  const CaseCheck in_worker = [&](const Case& c) { return config.worker->check(subject, property, c); };
  int hangs = 0;  // verdicts of kind hung so far
  auto verdict_of = [&](const Case& c) {
    Verdict v = guarded_verdict(property, c, rules.check_contract, config.worker ? in_worker : check);
    hangs += v.fails() && v.kind == FailureKind::hung;
    return v;
  };
  std::optional<Case> last_failing;
  std::optional<Verdict> last_verdict;
  std::optional<FailureKind> kind;  // the first failure's: shrinking keeps it
  // Whether the shrink must stop trying candidates: a hang once kMaxHungCandidates candidates hung;
  // in process, a device fault or an allocation failure, which can poison every later case.
  const auto shrink_stopped = [&] {
    return kind &&
           ((*kind == FailureKind::hung && hangs >= kMaxHungCandidates) || (!config.worker && ends_the_worker(*kind)));
  };
  // A fault of parity's worker or channel (WorkerError) is no verdict: RapidCheck would count any exception as a
  // failing case, so it is kept, the rest of the run does nothing, and it is rethrown after.
  std::exception_ptr worker_fault;
  int evaluated = 0, discarded = 0, failed_at = 0;
  auto prop = [&] {
    // A hang skips RapidCheck's shrink (every candidate that still hangs costs the deadline, and
    // that shrink spends them on patches and layouts first): the dims-only descent below shrinks it.
    if (worker_fault || shrink_stopped() || (kind && *kind == FailureKind::hung)) return;
    const Case c = *gen;
    Verdict v;
    try {
      v = verdict_of(c);
    } catch (const WorkerError&) {
      worker_fault = std::current_exception();
      return;
    }
    ++evaluated;
    if (config.progress && evaluated % 10 == 0)
      *config.progress << "  " << property << " on " << subject << ": " << evaluated << " cases evaluated\r"
                       << std::flush;
    if (v.outcome == Outcome::discarded) {
      ++discarded;
      RC_DISCARD(v.detail);
    }
    if (v.fails()) {
      if (!kind) {
        kind = v.kind;
        failed_at = evaluated - discarded;
      }
      if (v.kind != *kind) return;  // another kind of failure does not reproduce this one
      last_failing = c;             // shrinking ends on the last failing case it tried
      last_verdict = v;
      RC_FAIL(v.detail);
    }
  };

  // RapidCheck's configuration (and its "Using configuration" line) only when RC_PARAMS asks.
  rc::detail::TestParams params =
      std::getenv("RC_PARAMS") ? rc::detail::configuration().testParams : rc::detail::TestParams{};
  params.seed = result.seed;
  params.maxSuccess = cases;
  params.disableShrinking = !config.shrink;
  rc::detail::TestMetadata metadata;
  metadata.id = subject + "/" + property;
  metadata.description = metadata.id;
  // A silent listener: parity prints its own report and replay command; RapidCheck's
  // RC_PARAMS="reproduce=..." line at exit would name test ids that parity does not use.
  rc::detail::TestListenerAdapter silent;
  const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;  // parity replays its own files
  const auto outcome = rc::detail::checkProperty(rc::detail::toProperty(prop), metadata, params, silent, no_reproduce);
  if (config.progress) *config.progress << std::string(72, ' ') << '\r' << std::flush;
  if (worker_fault) std::rethrow_exception(worker_fault);

  result.discarded = discarded;
  rc::detail::SuccessResult ok;
  if (outcome.match(ok)) {
    result.passed = true;
    result.cases = ok.numSuccess;
    result.message = property + " on " + subject + ": " + std::to_string(ok.numSuccess) + " cases hold (" +
                     std::to_string(discarded) + " discarded, seed " + std::to_string(result.seed) + ")";
    return result;
  }

  std::ostringstream msg;
  if (!last_failing) {  // gave up (too many discards) or RapidCheck itself failed
    std::ostringstream raw;
    rc::detail::printResultMessage(outcome, raw);
    result.message = property + " on " + subject + ": no verdict: " + raw.str();
    return result;
  }
  // An invalid case is a generator's fault: a smaller invalid case explains nothing more.
  std::string descent_note;  // when the descent ran out of checks
  if (config.shrink && *kind != FailureKind::invalid_case && !shrink_stopped()) {
    const auto same_failure = [&](const Case& candidate) {
      if (shrink_stopped()) return false;
      const Verdict v = verdict_of(candidate);
      if (!reproduces(v, *kind)) return false;
      last_verdict = v;  // the descent's last success is its result
      return true;
    };
    const ShrinkResult descent =
        shrink_case(*last_failing, same_failure,
                    {.max_evaluations = kLocalMinimumChecks, .dims_only = true, .conform = rules.conform});
    last_failing = descent.shrunk;
    if (descent.exhausted)
      descent_note = "stopped after " + std::to_string(descent.evaluations) + " checks; not a local minimum";
  }
  if (config.shrink && shrink_stopped())
    descent_note = *kind == FailureKind::hung
                       ? "stopped after " + std::to_string(hangs) +
                             " candidates hung, each costing the deadline; "
                             "not checked to be a local minimum"
                       : "not shrunk: in process, a device fault or a failed allocation can make every later case "
                         "fail (run without --in-process to shrink it)";
  result.cases = evaluated;
  result.counterexample = last_failing;
  result.verdict = last_verdict;
  const std::string family = last_failing->family;
  const char* rc_params = std::getenv("RC_PARAMS");
  result.rerun = config.rerun_command
                     ? config.rerun_command(property, result.seed, cases)
                     : (rc_params ? "RC_PARAMS=" + shell_quoted(rc_params) + " " : std::string()) + "parity check " +
                           family + " --subject " + subject + " --property " + property + " --cases " +
                           std::to_string(cases) + " --seed " + std::to_string(result.seed) +
                           max_flags(config.max_extents) + config.restrictions.flag_words() + config.subject_flags;
  // The reproducer is only worth writing if the case fails again: when it does not, the
  // failure is nondeterminism, and the reproducer says so.
  const bool fails_again = reproduces(verdict_of(*last_failing), *kind);
  if (!fails_again) {
    result.verdict->kind = FailureKind::nondeterministic;
    result.verdict->detail += " (the shrunk case did not fail when run again)";
  }
  msg << "FAILED " << family << "/" << property << " on " << subject << " (" << failure_kind_text(result.verdict->kind)
      << ", case " << failed_at << " of " << cases << ", seed " << result.seed << "), shrunk"
      << (descent_note.empty() ? "" : " (" + descent_note + ")") << " to:\n  " << last_failing->summary() << "\n  "
      << result.verdict->detail << "\n";
  if (!fails_again)
    msg << "  note: the subject's result is not a function of its inputs (nondeterminism), which is itself a\n"
           "  failure; its reproducer replays the case repeatedly\n";
  if (!result.rerun.empty()) msg << "  rerun:      " << result.rerun << "\n";
  if (config.write_reproducer) {
    const auto dir = config.repro_dir.empty() ? default_repro_dir() : config.repro_dir;
    result.reproducer = write_reproducer({subject, property, *last_failing, *result.verdict}, dir);
    msg << "  reproducer: " << result.reproducer->string() << "\n  replay:     " << config.replay_command << " "
        << result.reproducer->string() << "\n";
  }
  result.message = msg.str();
  return result;
}

}  // namespace parity::gen

namespace parity {
void showValue(const Case& c, std::ostream& os) { os << c.summary(); }
}  // namespace parity
