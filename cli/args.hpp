#pragma once
// The parsed command line of one `parity` subcommand, as its run function sees it: the flags
// given (`--name value` or `--name=value`; a switch's value is empty), the positional arguments
// and the raw arguments after the subcommand. The parser (cli/parser.hpp) makes it from the
// subcommand's CommandSpec; numbers are read here, through the project's one decimal parser.
// Every error is an InputError naming the flag.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace parity::cli {

// The largest count a flag takes (--cases, --max-checks): 10^9.
inline constexpr std::uint64_t kMaxCount = 1000000000;

class Args {
 public:
  Args(std::string command, std::map<std::string, std::string> values, std::vector<std::string> positional,
       std::vector<std::string> raw)
      : command_(std::move(command)),
        values_(std::move(values)),
        positional_(std::move(positional)),
        raw_(std::move(raw)) {}

  const std::string& command() const { return command_; }
  const std::vector<std::string>& positional() const { return positional_; }
  const std::vector<std::string>& raw() const { return raw_; }
  bool has(const std::string& flag) const { return values_.count(flag) != 0; }
  std::optional<std::string> get(const std::string& flag) const;
  // The flag's value, plain decimal in [min, max] (core/decimal.hpp), or `fallback` when the
  // flag is absent; throws InputError naming the flag otherwise.
  std::uint64_t number(const std::string& flag, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) const;
  // A comma-separated list of such numbers, each in [0, max].
  std::vector<std::uint64_t> number_list(const std::string& flag, std::vector<std::uint64_t> fallback,
                                         std::uint64_t max) const;

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
  std::vector<std::string> raw_;
};

// The directory reproducers go to: `flag`'s value, else default_repro_dir() (core/reproducer.hpp);
// checked writable now (check_output_directory), naming the flag or PARITY_REPRO_DIR.
std::filesystem::path writable_repro_dir(const Args& args, const std::string& flag);

}  // namespace parity::cli
