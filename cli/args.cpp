#include <parity/cli/args.hpp>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>

namespace parity::cli {

std::optional<std::string> Args::get(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::uint64_t Args::number(const std::string& flag, std::uint64_t fallback, std::uint64_t min,
                           std::uint64_t max) const {
  const auto v = get(flag);
  return v ? decimal_in_range(*v, flag, min, max) : fallback;
}

std::vector<std::uint64_t> Args::number_list(const std::string& flag, std::vector<std::uint64_t> fallback,
                                             std::uint64_t max) const {
  const auto v = get(flag);
  if (!v) return fallback;
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = v->find(',', start);
    out.push_back(decimal_in_range(
        std::string_view(*v).substr(start, comma == std::string::npos ? std::string::npos : comma - start), flag, 0,
        max));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::filesystem::path writable_repro_dir(const Args& args, const std::string& flag) {
  const auto chosen = args.get(flag);
  const std::filesystem::path dir = chosen ? std::filesystem::path(*chosen) : default_repro_dir();
  check_output_directory(dir, chosen ? flag : "PARITY_REPRO_DIR (default reports/repros)");
  return dir;
}

}  // namespace parity::cli
