#pragma once
// The `parity` subcommands (DESIGN.md, "Contract of the parity command"). Each returns the
// process exit status: 0 success, 1 a check failed, 2 a usage or input error (thrown as
// InputError and reported by main).
#include <string>
#include <vector>

namespace parity::cli {

using Argv = std::vector<std::string>;

int cmd_gate(const Argv& args);
int cmd_check(const Argv& args);
int cmd_probes(const Argv& args);
int cmd_replay(const Argv& args);
int cmd_list(const Argv& args);
int cmd_bridge(const Argv& args);
int cmd_fuzz_repro(const Argv& args);
int cmd_trajectory(const Argv& args);
int cmd_report(const Argv& args);  // cmd_report.hpp
int cmd_export(const Argv& args);  // cmd_export.hpp

}  // namespace parity::cli
