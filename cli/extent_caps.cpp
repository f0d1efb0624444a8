#include <parity/cli/extent_caps.hpp>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>

namespace parity::cli {
namespace {

// --max's "EXT=N,EXT=N" as extent -> (the item's text, N), in order; InputError naming the item.
std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>> generic_caps(const Args& args) {
  std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>> out;
  const auto value = args.get("--max");
  if (!value) return out;
  std::size_t begin = 0;
  while (begin <= value->size()) {
    const std::size_t end = std::min(value->find(',', begin), value->size());
    const std::string item = value->substr(begin, end - begin);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--max: expected EXT=N[,EXT=N...] (e.g. --max T=4096,D=8192), not '" + item + "'");
    const auto n = parse_decimal(std::string_view(item).substr(eq + 1));
    if (!n) throw InputError("--max " + item + ": the value is not a plain decimal");
    out.push_back({item.substr(0, eq), {item, *n}});
    begin = end + 1;
  }
  return out;
}

// " (rms_norm: T, D; softmax: T, N)": the extents of `selected`.
std::string extents_text(const std::vector<const gen::Family*>& selected) {
  std::string out;
  for (const gen::Family* f : selected) {
    std::string names;
    for (const auto& cap : f->extent_caps()) names += (names.empty() ? "" : ", ") + cap.extent;
    if (!names.empty()) out += (out.empty() ? "" : "; ") + f->name() + ": " + names;
  }
  return out.empty() ? "" : " (" + out + ")";
}

bool has_extent(const gen::Family& f, const std::string& extent) {
  for (const auto& cap : f.extent_caps())
    if (cap.extent == extent) return true;
  return false;
}

}  // namespace

gen::ExtentMaxima extent_caps(const Args& args, const gen::Family& family,
                              const std::vector<const gen::Family*>& selected) {
  const auto generic = generic_caps(args);
  for (const auto& [extent, item] : generic) {
    bool used = false;
    for (const gen::Family* f : selected) used = used || has_extent(*f, extent);
    if (!used)
      throw InputError("--max " + item.first + ": no selected family has the extent " + extent +
                       extents_text(selected));
  }
  gen::ExtentMaxima maxima;
  for (const auto& cap : family.extent_caps()) {
    for (const auto& [extent, item] : generic)
      if (extent == cap.extent) {
        if (item.second < static_cast<std::uint64_t>(cap.min) || item.second > static_cast<std::uint64_t>(cap.limit))
          throw InputError("--max " + item.first + ": " + family.name() + "'s " + extent + " lies in [" +
                           std::to_string(cap.min) + ", " + std::to_string(cap.limit) + "]");
        maxima[extent] = static_cast<std::int64_t>(item.second);
      }
  }
  gen::resolve_extent_caps(family.name(), family.extent_caps(), maxima);  // the environment, now
  return maxima;
}

}  // namespace parity::cli
