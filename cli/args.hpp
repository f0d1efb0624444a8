#pragma once
// Command-line flags of the `parity` subcommands: `--name value` or `--name=value`, switches
// without a value, and positional arguments. Every error is an InputError naming the flag.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace parity::cli {

class Args {
 public:
  // `valued`: flags that take a value; `switches`: flags that take none. Unknown flags throw.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
       const std::set<std::string>& switches);

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& flag) const { return values_.count(flag) != 0; }
  std::optional<std::string> get(const std::string& flag) const;
  // A positive integer, or `fallback` when absent; throws naming the flag otherwise.
  std::int64_t positive_int(const std::string& flag, std::int64_t fallback) const;
  std::uint64_t uint64(const std::string& flag, std::uint64_t fallback) const;
  // A comma-separated list of integers.
  std::vector<std::int64_t> int_list(const std::string& flag, std::vector<std::int64_t> fallback) const;

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace parity::cli
