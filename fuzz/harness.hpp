#pragma once
// What every property harness does around its check: choose the subject, evaluate a decoded
// input the way the RapidCheck runner does, and turn a violated property into a reproducer
// and a trap (docs/design.md, "The ways through it", 3).
#include <functional>
#include <string>

#include <parity/core/verdict.hpp>
#include <parity/fuzz/fuzz_input.hpp>

namespace parity::fuzz {

// The subject a harness checks: $PARITY_FUZZ_SUBJECT when set and not empty, else
// `fallback` (parity's own kernel, parity-host).
std::string fuzz_subject(const std::string& fallback);

// Runs `check` on `in`: returns its verdict; a std::exception other than InputError becomes a
// failing verdict ("the subject threw: ..."), as in run_property. An InputError means the
// decoder produced a Case the family refuses, which breaks the decoder's contract: the Case
// is printed as JSON and the process traps.
Verdict run_guarded(const std::string& family, const FuzzInput& in, const std::function<Verdict()>& check);

// The command that replays a reproducer, as report_violation prints it before the file: `parity
// replay` (the default: parity's own ops and subjects), or that of a program of the user's that
// registers its own (a user's op fuzzer, parity_add_op_fuzzer: its property tests' program with
// --replay), whose crash files `parity fuzz-repro`, knowing only parity's, cannot shrink.
void set_replay_command(std::string command);

// Reports a violated property and stops the process so that libFuzzer records the input as a
// crash: writes the reproducer {subject, property, Case, verdict} to default_repro_dir()
// ($PARITY_REPRO_DIR), prints the verdict, the replay command (set_replay_command) with the file
// and, by default, the `parity fuzz-repro` command that shrinks the crash file, then
// __builtin_trap().
[[noreturn]] void report_violation(const std::string& family, const std::string& subject, const FuzzInput& in,
                                   const Verdict& v);

}  // namespace parity::fuzz
