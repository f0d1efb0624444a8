#pragma once
// Shrinking a fixed failing Case, for `parity fuzz-repro`: libFuzzer's byte minimiser makes a
// crash input shorter, but only a Case-level shrinker makes the Case small. This one reuses
// RapidCheck's shrink machinery (rc::shrinkable::shrinkRecur builds the shrink tree from
// case_shrinks, rc::shrinkable::findLocalMin walks it) and RapidCheck's own strategies for
// the parts (rc::shrink::removeChunks for the patch list, rc::shrink::towards for integers),
// so a fuzz-found Case shrinks along the same axes as a generated one: fewer patches,
// contiguous layouts, probe row 0, smaller dimensions, fewer parameters, seed 0.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "core/case.hpp"

namespace parity::fuzz {

// The immediate shrinks of `c`, simplest first: patch chunks removed; each non-contiguous
// layout made contiguous, then its offset, pad and transposition dropped one at a time; the
// probe row towards 0; each dimension towards 0 (a family whose dimension cannot be 0 refuses
// the candidate with an InputError), those in `dims_first` first and in that order (a family's
// priorities: the greedy descent keeps the first shrink that still fails), then the others by
// name; each parameter removed (its default then applies); the seed towards 0. Candidates
// need not be valid Cases: the predicate decides.
rc::Seq<Case> case_shrinks(const Case& c, const std::vector<std::string>& dims_first = {});

struct ShrinkResult {
  Case shrunk;          // the smallest Case found that still fails
  int steps = 0;        // accepted shrinks
  int evaluations = 0;  // predicate calls
  bool exhausted = false;  // stopped at max_evaluations rather than at a local minimum
};

// Greedy descent: takes the first shrink of the current Case for which `still_fails` holds,
// and repeats until none does or `max_evaluations` predicate calls are spent. `still_fails`
// must be false for a Case it cannot evaluate (an InputError), so invalid candidates are
// never kept. `c` itself is assumed to fail.
ShrinkResult shrink_case(const Case& c, const std::function<bool(const Case&)>& still_fails,
                         int max_evaluations = 3000, const std::vector<std::string>& dims_first = {});

}  // namespace parity::fuzz
