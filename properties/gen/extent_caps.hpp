#pragma once
// The largest extents a family's generator draws, settable by the user. Each family names its
// capped extents (an op, and the families over an op's cases, its declared extents) with
// a default and the contract's limit. A run's maxima are the defaults, overridden by the
// environment (PARITY_MAX_<EXTENT>, the extent's name in upper case: PARITY_MAX_T, PARITY_MAX_R),
// overridden by explicit values (`parity check --max T=4096`, RunConfig).
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
};

// Extent name -> the largest value a generator may draw.
using ExtentMaxima = std::map<std::string, std::int64_t>;

// "PARITY_MAX_" + the extent's name in upper case.
std::string extent_cap_variable(const std::string& extent);

// The maxima of `caps`: each default, then $PARITY_MAX_<EXTENT> when set and non-empty, then
// `explicit_maxima[extent]`. Throws InputError naming the variable (or "--max EXT=N") for a
// value that is not plain decimal in [min, limit], and for an explicit extent `family` lacks.
ExtentMaxima resolve_extent_caps(const std::string& family, const std::vector<ExtentCap>& caps,
                                 const ExtentMaxima& explicit_maxima);

// "PARITY_MAX_T=4096 " for each of `caps` whose variable is set and non-empty, in order: the
// environment a rerun of a run under these variables needs.
std::string extent_cap_assignments(const std::vector<ExtentCap>& caps);

}  // namespace parity::gen
