#pragma once
// A family's properties run in two rounds, so that a failure any of them can find within a few
// cases is reported in seconds, not after every earlier property's full count: first every
// property at kFirstRoundCases cases (a run of its own, its seed the same), then, for each that
// has not failed and applies, its full count (one whose few cases gave no verdict, all
// discarded say, runs again there too). A property's result is its failing round's, or the full round's. A
// failure in the first round is a run of kFirstRoundCases cases: its rerun line (`--cases 10`)
// and reproducer replay it as they do any run's. A count of kFirstRoundCases or fewer is one round.
//
// `parity check` and the probes' detection (detect_probe: `parity probes`, bench/probe_detection)
// schedule their properties here.
#include <functional>
#include <string>
#include <vector>

#include <parity/properties/gen/family.hpp>

namespace parity::gen {

inline constexpr int kFirstRoundCases = 10;

// The case count of each round for a run of `cases` cases.
std::vector<int> round_counts(int cases);

// What the rounds do after a run: go on (a property that failed or does not apply is settled, the
// others run again in the next round), go on with this property open for the next round though
// it failed (a failure that does not count: detect_probe's case that parity's own kernel fails
// too), or stop.
enum class AfterRun { next, again, stop };

// Runs `properties` of `family` on `subject` in rounds (header comment), with `config` (its
// cases, or the family's default count where 0). `on_run(property, result)` is called after every
// run, in order, and says what follows (default: next). Returns each property's result in the
// order of `properties`, its last run's (those never run, after a stop, are absent).
std::vector<std::pair<std::string, RunResult>> run_in_rounds(
    const Family& family, const std::string& subject, const std::vector<std::string>& properties,
    const RunConfig& config,
    const std::function<AfterRun(const std::string& property, const RunResult& result)>& on_run = {});

}  // namespace parity::gen
