#pragma once
// The largest extents a family's generator draws, settable by the user. Each family names its
// capped extents (lora: T, N, K, r; an op, and the transition family, its declared extents) with
// a default and the contract's limit. A run's maxima are the defaults, overridden by the
// environment (PARITY_MAX_<EXTENT>, the extent's name in upper case: PARITY_MAX_T, PARITY_MAX_R),
// overridden by explicit values (`parity check --max-T 4096`, RunConfig).
// A generated case never exceeds them, nor the family's work limit per case.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace parity::gen {

struct ExtentCap {
  std::string extent;        // the Case dimension it caps, e.g. "T"
  std::int64_t default_max;  // what a run draws up to unless told otherwise
  std::int64_t limit;        // the family's contract: a cap above it is refused
  std::int64_t min = 1;      // the smallest value the family takes: a cap below it is refused
  // Whether `parity check` has a --max-<extent> flag (and --help a $PARITY_MAX_<EXTENT> row) for
  // it. The op families' extents (ops/) have none of their own: they are capped by the generic
  // `--max EXT=N` and $PARITY_MAX_<EXT>, so that a new op adds no flags.
  bool own_flag = true;
};

// Extent name -> the largest value a generator may draw.
using ExtentMaxima = std::map<std::string, std::int64_t>;

// One capped extent of a family's Caps struct: its name, the member holding its maximum (whose
// default member initialiser is the default), and the contract's limit.
template <class Caps>
struct CapField {
  std::string extent;
  std::int64_t Caps::*max;
  std::int64_t limit;
};

// The ExtentCaps of `fields`, defaults from a default-constructed Caps.
template <class Caps>
std::vector<ExtentCap> extent_caps_of(const std::vector<CapField<Caps>>& fields) {
  const Caps defaults{};
  std::vector<ExtentCap> out;
  for (const auto& f : fields) out.push_back({f.extent, defaults.*f.max, f.limit});
  return out;
}

// A default Caps with each of `fields` set from `maxima` (which holds every one of them).
template <class Caps>
Caps caps_from(const std::vector<CapField<Caps>>& fields, const ExtentMaxima& maxima) {
  Caps caps{};
  for (const auto& f : fields) caps.*f.max = maxima.at(f.extent);
  return caps;
}

// "PARITY_MAX_" + the extent's name in upper case.
std::string extent_cap_variable(const std::string& extent);

// The maxima of `caps`: each default, then $PARITY_MAX_<EXTENT> when set and non-empty, then
// `explicit_maxima[extent]`. Throws InputError naming the variable (or "--max-<extent>") for a
// value that is not plain decimal in [min, limit], and for an explicit extent `family` lacks.
ExtentMaxima resolve_extent_caps(const std::string& family, const std::vector<ExtentCap>& caps,
                                 const ExtentMaxima& explicit_maxima);

// "PARITY_MAX_T=4096 " for each of `caps` whose variable is set and non-empty, in order: the
// environment a rerun of a run under these variables needs.
std::string extent_cap_assignments(const std::vector<ExtentCap>& caps);

}  // namespace parity::gen
