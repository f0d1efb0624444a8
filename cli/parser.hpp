#pragma once
// The `parity` command line: CLI11 subcommands built from command_specs(), so that the parser
// and every `--help` come from one definition.
//
//   parity --help | -h | help         the commands, exit 0 (`parity` alone: the same, exit 2)
//   parity COMMAND --help | -h        the command's arguments, flags and environment, exit 0
//   parity help COMMAND               the same
//   parity --version                  exit 0
//   parity COMMAND ARGS...            runs it; exit 0, 1, or 2 for any usage or input error
//
// Every parse error (an unknown command or flag, a missing value, a value given to a switch)
// exits 2 with one line naming the command and the flag; numbers are read by Args, through the
// project's one decimal parser. The environment (core/decimal.hpp's variables and RC_PARAMS) is
// checked before a command runs. A hidden `parity help-dump` prints, as JSON, every command with
// the flags and positional arguments the parser holds and the environment variables its help
// names: what cli/tests/help_readme_test.py compares with `--help` and docs/command.md.
#include <string>
#include <vector>

namespace parity::cli {

// Runs the command line `args` (without the program's name); returns the exit status.
int run_command_line(const std::vector<std::string>& args);

}  // namespace parity::cli
