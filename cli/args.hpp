#pragma once
// Command-line flags of the `parity` subcommands: `--name value` or `--name=value`, switches
// without a value, and positional arguments. Every error is an InputError naming the flag.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace parity::cli {

// The largest count a flag takes (--cases, --max-checks): 10^9.
inline constexpr std::uint64_t kMaxCount = 1000000000;

class Args {
 public:
  // `valued`: flags that take a value; `switches`: flags that take none. Unknown flags throw.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
       const std::set<std::string>& switches);

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& flag) const { return values_.count(flag) != 0; }
  std::optional<std::string> get(const std::string& flag) const;
  // The flag's value, plain decimal in [min, max] (core/decimal.hpp), or `fallback` when the
  // flag is absent; throws InputError naming the flag otherwise.
  std::uint64_t number(const std::string& flag, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) const;
  // A comma-separated list of such numbers, each in [0, max].
  std::vector<std::uint64_t> number_list(const std::string& flag, std::vector<std::uint64_t> fallback,
                                         std::uint64_t max) const;

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// The directory reproducers go to: `flag`'s value, else default_repro_dir() (core/reproducer.hpp);
// checked writable now (check_output_directory), naming the flag or PARITY_REPRO_DIR.
std::filesystem::path writable_repro_dir(const Args& args, const std::string& flag);

}  // namespace parity::cli
