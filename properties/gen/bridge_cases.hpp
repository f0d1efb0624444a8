#pragma once
// RapidCheck generator of bridge Cases (properties/bridge/bridge_problem.hpp says what each
// field means): vocab in [2, max_vocab], d in [1, max_d], heads one of d's divisors (so
// d_head = 1 and a single head both occur), hidden in [1, max_hidden], max_len in
// [1, max_len], len in [1, max_len] (max_len minus a draw that shrinks to 0, so sequences
// fill max_len unless shortened), ids and targets uniform in [0, vocab), a seed, and an
// initialisation scale of 0.02 (the reference's: near-uniform attention), 0.3 or 1.0 (peaked
// attention and saturating GELU, where a wrong backward shows most). Extents grow with
// RapidCheck's size (small first); the reference's (vocab 9, d 4, hidden 7, max_len 8) lie
// inside the default caps. Everything shrinks: smaller extents, one head, ids and targets
// towards 0, seed 0, init_std towards 0.02.
#include <cstdint>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/properties/gen/case_rules.hpp>

namespace parity::gen {

struct BridgeCaps {
  std::int64_t max_vocab = 24;
  std::int64_t max_d = 12;
  std::int64_t max_hidden = 16;
  std::int64_t max_len = 12;
};

rc::Gen<Case> bridge_case(BridgeCaps caps = {});

// The bridge contract (properties::bridge::materialise_bridge accepts the Case) and its
// consistency rules: len <= max_len, ids.<t> and targets.<t> for each t < len and below vocab.
const CaseRules& bridge_rules();

}  // namespace parity::gen
