#pragma once
// What a `parity` subcommand is to the parser (cli/parser.hpp): its name, its help, its
// positional arguments, its flags, the environment variables it reads and the function that
// runs it. command_specs() (cli/command_specs.cpp) lists every subcommand: adding a flag or a
// subcommand is one entry there, and `--help`, the parser and the help/README test
// (cli/tests/help_readme_test.py) all follow from it.
#include <functional>
#include <string>
#include <vector>

#include <parity/cli/args.hpp>

namespace parity::cli {

struct FlagSpec {
  std::string name;   // "--cases"
  std::string value;  // the value's placeholder ("N", "FILE"); empty: a switch, which takes none
  std::string help;
};

struct PositionalSpec {
  std::string name;  // "FAMILY"
  std::string help;
  bool many = false;  // takes every remaining argument (FILE|DIR...)
};

struct CommandSpec {
  std::string name;
  std::string summary;      // one line, in `parity --help`'s list of commands
  std::string description;  // the paragraph after the flags in `parity NAME --help`
  std::vector<PositionalSpec> positionals = {};
  std::vector<FlagSpec> flags = {};
  std::vector<std::string> environment = {};  // names in environment_variables()
  std::function<int(const Args&)> run = {};   // the exit status: 0, 1 or 2 (InputError: 2)
};

struct EnvironmentVariable {
  std::string name;
  std::string help;
};

// Every subcommand, in the order `parity --help` lists them.
const std::vector<CommandSpec>& command_specs();
// Every environment variable parity reads, with what it means.
const std::vector<EnvironmentVariable>& environment_variables();

}  // namespace parity::cli
