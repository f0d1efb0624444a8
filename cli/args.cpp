#include "cli/args.hpp"

#include <cerrno>
#include <cstdlib>

#include "core/error.hpp"

namespace parity::cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
           const std::set<std::string>& switches) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      positional_.push_back(a);
      continue;
    }
    std::string name = a, value;
    const auto eq = a.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (valued.count(name)) {
      if (!inline_value) {
        if (i + 1 >= argv.size()) throw InputError(name + ": needs a value");
        value = argv[++i];
      }
      values_[name] = value;
    } else if (switches.count(name)) {
      if (inline_value) throw InputError(name + ": takes no value");
      values_[name] = "";
    } else {
      throw InputError(name + ": unknown flag (see --help)");
    }
  }
}

std::optional<std::string> Args::get(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::uint64_t Args::uint64(const std::string& flag, std::uint64_t fallback) const {
  const auto v = get(flag);
  if (!v) return fallback;
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 0);
  if (v->empty() || *end != '\0' || errno != 0 || (*v)[0] == '-')
    throw InputError(flag + ": '" + *v + "' is not a non-negative integer");
  return n;
}

std::int64_t Args::positive_int(const std::string& flag, std::int64_t fallback) const {
  if (!has(flag)) return fallback;
  const std::uint64_t n = uint64(flag, 0);
  if (n == 0 || n > 1000000000ull) throw InputError(flag + ": must be a positive integer (got " + *get(flag) + ")");
  return static_cast<std::int64_t>(n);
}

std::vector<std::int64_t> Args::int_list(const std::string& flag, std::vector<std::int64_t> fallback) const {
  const auto v = get(flag);
  if (!v) return fallback;
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start <= v->size()) {
    const std::size_t comma = v->find(',', start);
    const std::string item = v->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0)
      throw InputError(flag + ": '" + item + "' is not an integer");
    out.push_back(n);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace parity::cli
