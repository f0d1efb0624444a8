#pragma once
// The `parity` subcommands (docs/design.md, "The parity command"). Each returns the process exit status: 0 success, 1 a
// check failed, 2 a usage or input error (thrown as InputError and reported by the parser, cli/parser.hpp). Their flags
// and help are in cli/command_specs.cpp.
#include <parity/cli/args.hpp>

namespace parity::cli {

int cmd_gate(const Args& args);
int cmd_check(const Args& args);
int cmd_probes(const Args& args);
int cmd_replay(const Args& args);
int cmd_list(const Args& args);
int cmd_bridge(const Args& args);
int cmd_fuzz_repro(const Args& args);
int cmd_trajectory(const Args& args);
int cmd_report(const Args& args);  // run_report, cli/cmd_report.hpp
int cmd_export(const Args& args);  // run_export, cli/cmd_export.hpp

}  // namespace parity::cli
