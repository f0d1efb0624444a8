#pragma once
// The generic --max EXT=N[,EXT=N...] of `parity check` and `parity probes`, which caps any
// family's extent by name (the largest value its generator draws, properties/gen/extent_caps.hpp),
// e.g. --max T=4096,D=8192. The one place that flag is parsed.
#include <string>
#include <vector>

#include <parity/cli/args.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::cli {

// The caps `args` gives for `family`'s extents, each plain decimal in [the extent's min, its
// limit], checked together with $PARITY_MAX_<EXTENT> (resolve_extent_caps). Throws InputError
// naming --max's item for a bad value and for an extent that no family in `selected` has.
gen::ExtentMaxima extent_caps(const Args& args, const gen::Family& family,
                              const std::vector<const gen::Family*>& selected);

}  // namespace parity::cli
