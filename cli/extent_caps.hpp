#pragma once
// The --max-<extent> flags of `parity check` and `parity probes`: the largest extents a family's
// generator draws (properties/gen/extent_caps.hpp), e.g. --max-T 4096 --max-K 8192 for lora,
// and the generic --max EXT=N[,EXT=N...], which caps any family's
// extent by name (the op families' extents have no --max-<extent> of their own). The one place
// those flags are parsed.
#include <set>
#include <string>
#include <vector>

#include <parity/cli/args.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::cli {

// "--max-<extent>" for every capped extent of every family that has its own flag: the valued
// flags to give Args (with "--max").
std::set<std::string> extent_cap_flags();

// The caps `args` gives for `family`'s extents, each plain decimal in [the extent's min, its
// limit], checked together with $PARITY_MAX_<EXTENT> (resolve_extent_caps). Throws InputError
// naming the flag (or --max's item) for a bad value, for an extent that no family in `selected`
// has, and for an extent capped by both --max and its --max-<extent>.
gen::ExtentMaxima extent_caps(const Args& args, const gen::Family& family,
                              const std::vector<const gen::Family*>& selected);

}  // namespace parity::cli
