#include "properties/gen/run_property.hpp"

#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <unordered_map>

#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include "core/error.hpp"
#include "core/reproducer.hpp"

namespace parity::gen {
namespace {

constexpr std::uint64_t kDefaultSeed = 0x5EED0F9A41717ull;

Verdict guarded(const CaseCheck& check, const Case& c, const std::string& property) {
  try {
    return check(c);
  } catch (const std::exception& e) {
    return Verdict::fail(property, std::string("the subject threw: ") + e.what());
  }
}

}  // namespace

int default_case_count(int fallback) {
  if (const char* env = std::getenv("PARITY_CASES"); env && *env) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end == '\0' && v > 0 && v < 100000000) return static_cast<int>(v);
  }
  return fallback;
}

std::uint64_t default_seed() {
  if (const char* rc = std::getenv("RC_PARAMS"); rc && std::string(rc).find("seed=") != std::string::npos)
    return rc::detail::configuration().testParams.seed;
  if (const char* env = std::getenv("PARITY_SEED"); env && *env) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 0);
    if (*end != '\0' || env[0] == '-') throw InputError(std::string("PARITY_SEED: '") + env + "' is not a non-negative integer");
    return v;
  }
  return kDefaultSeed;
}

RunResult not_applicable_result(const std::string& subject, const std::string& property, const std::string& why) {
  RunResult result;
  result.not_applicable = why;
  result.message = property + " does not apply to " + subject + ": " + why;
  return result;
}

RunResult run_property(const std::string& subject, const std::string& property,
                       const rc::Gen<Case>& gen, const CaseCheck& check, const RunConfig& config) {
  RunResult result;
  result.seed = config.seed.value_or(default_seed());
  const int cases = config.cases > 0 ? config.cases : default_case_count(kDefaultCasesPerProperty);

  std::optional<Case> last_failing;
  std::optional<Verdict> last_verdict;
  int evaluated = 0, discarded = 0;
  auto prop = [&] {
    const Case c = *gen;
    const Verdict v = guarded(check, c, property);
    ++evaluated;
    if (config.progress && evaluated % 10 == 0)
      *config.progress << "  " << property << " on " << subject << ": " << evaluated << " cases evaluated\r"
                       << std::flush;
    if (v.outcome == Outcome::discarded) {
      ++discarded;
      RC_DISCARD(v.detail);
    }
    if (v.fails()) {
      last_failing = c;  // shrinking ends on the last failing case it tried
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
  const auto outcome =
      rc::detail::checkProperty(rc::detail::toProperty(prop), metadata, params, silent, no_reproduce);
  if (config.progress) *config.progress << std::string(72, ' ') << '\r' << std::flush;

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
  result.cases = evaluated;
  result.counterexample = last_failing;
  result.verdict = last_verdict;
  msg << "FAILED " << last_failing->family << "/" << property << " on " << subject << " (seed " << result.seed
      << "), shrunk to:\n  " << last_failing->summary() << "\n  " << last_verdict->detail << "\n";
  // The reproducer is only worth writing if the case fails again: say so when it does not.
  if (!guarded(check, *last_failing, property).fails())
    msg << "  note: the shrunk case did not fail when run again: the subject's result is not a\n"
           "  function of its inputs (nondeterminism), which is itself a failure\n";
  if (config.write_reproducer) {
    const auto dir = config.repro_dir.empty() ? default_repro_dir() : config.repro_dir;
    result.reproducer = write_reproducer({subject, property, *last_failing, *last_verdict}, dir);
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
