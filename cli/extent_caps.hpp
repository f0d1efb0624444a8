#pragma once
// The --max-<extent> flags of `parity check` and `parity probes`: the largest extents a family's
// generator draws (properties/gen/extent_caps.hpp), e.g. --max-T 4096 --max-K 8192 for lora,
// --max-B 4096 for transition. The one place those flags are parsed.
#include <set>
#include <string>
#include <vector>

#include <parity/cli/args.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::cli {

// "--max-<extent>" for every capped extent of every family: the valued flags to give Args.
std::set<std::string> extent_cap_flags();

// The caps `args` gives for `family`'s extents, each plain decimal in [1, the extent's limit],
// checked together with $PARITY_MAX_<EXTENT> (resolve_extent_caps). Throws InputError naming the
// flag for a bad value, and for a --max- flag that no family in `selected` has.
gen::ExtentMaxima extent_caps(const Args& args, const gen::Family& family,
                              const std::vector<const gen::Family*>& selected);

}  // namespace parity::cli
