#pragma once
// Shrinking a fixed failing Case: for `parity fuzz-repro` (libFuzzer's byte minimiser makes a
// crash input shorter, but only a Case-level shrinker makes the Case small), `parity
// trajectory`, and run_property's pass after RapidCheck's own shrink. This one reuses
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

#include <parity/core/case.hpp>

namespace parity::gen {

struct ShrinkOptions {
  int max_evaluations = 3000;
  // Dimensions shrunk first, in this order (a family's priorities: the greedy descent keeps the
  // first shrink that still fails); the others follow by name.
  std::vector<std::string> dims_first = {};
  // Only the dimensions: the probe row, patches, layouts, parameters and seed stay.
  bool dims_only = false;
  // Applied to every candidate: brings the fields that depend on an extent back in range
  // (CaseRules::conform). Identity when empty.
  std::function<Case(Case)> conform = {};
};

// The immediate shrinks of `c`, simplest first: patch chunks removed; each non-contiguous
// layout made contiguous, then its offset, pad and transposition dropped one at a time; the
// probe row towards 0; each dimension towards 0 (0, then halfway, ..., then one less: halving
// and decrement both among them), then its halvings rounded down that those miss (a family
// whose dimension cannot be 0 refuses the candidate with an InputError), dims_first first; each parameter removed (its
// default then applies); the seed towards 0. Candidates need not be valid Cases: the predicate decides.
rc::Seq<Case> case_shrinks(const Case& c, const ShrinkOptions& options = {});

struct ShrinkResult {
  Case shrunk;             // the smallest Case found that still fails
  int steps = 0;           // accepted shrinks
  int evaluations = 0;     // predicate calls
  bool exhausted = false;  // stopped at max_evaluations rather than at a local minimum
};

// Greedy descent: takes the first shrink of the current Case for which `still_fails` holds,
// and repeats until none does (a local minimum: no shrink above of the result fails) or
// options.max_evaluations predicate calls are spent. `still_fails` must be false for a Case it
// cannot evaluate (an InputError), so invalid candidates are never kept. `c` itself is assumed
// to fail.
ShrinkResult shrink_case(const Case& c, const std::function<bool(const Case&)>& still_fails,
                         const ShrinkOptions& options = {});

}  // namespace parity::gen
