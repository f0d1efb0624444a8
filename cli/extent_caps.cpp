#include <parity/cli/extent_caps.hpp>

#include <parity/core/error.hpp>

namespace parity::cli {

std::set<std::string> extent_cap_flags() {
  std::set<std::string> flags;
  for (const gen::Family* f : gen::families())
    for (const auto& cap : f->extent_caps()) flags.insert("--max-" + cap.extent);
  return flags;
}

gen::ExtentMaxima extent_caps(const Args& args, const gen::Family& family,
                              const std::vector<const gen::Family*>& selected) {
  for (const std::string& flag : extent_cap_flags()) {
    if (!args.has(flag)) continue;
    bool used = false;
    for (const gen::Family* f : selected)
      for (const auto& cap : f->extent_caps()) used = used || flag == "--max-" + cap.extent;
    if (!used) throw InputError(flag + ": no selected family has the extent " + flag.substr(6));
  }
  gen::ExtentMaxima maxima;
  for (const auto& cap : family.extent_caps())
    if (const std::string flag = "--max-" + cap.extent; args.has(flag))
      maxima[cap.extent] = static_cast<std::int64_t>(args.number(flag, 0, 1, static_cast<std::uint64_t>(cap.limit)));
  gen::resolve_extent_caps(family.name(), family.extent_caps(), maxima);  // the environment, now
  return maxima;
}

}  // namespace parity::cli
