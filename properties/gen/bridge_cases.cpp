#include <parity/properties/gen/bridge_cases.hpp>

#include <parity/oracles/tiny_gpt_model.hpp>
#include <parity/properties/bridge/bridge_problem.hpp>

namespace parity::gen {
namespace {

// Every draw is independent, and dependent choices (heads among d's divisors, len up to
// max_len, tokens below vocab) are derived from independent draws: RapidCheck's mapcat
// regenerates the inner values when it shrinks an outer one, and elementOf does not shrink,
// so either would leave failures unshrunk.
struct Draw {
  std::int64_t vocab, d, hidden, max_len, heads_pick, len_short;
  int init_pick;
};

std::int64_t divisor_pick(std::int64_t d, std::int64_t pick) {
  std::vector<std::int64_t> divisors;
  for (std::int64_t h = 1; h <= d; ++h)
    if (d % h == 0) divisors.push_back(h);
  return divisors[static_cast<std::size_t>(pick) % divisors.size()];
}

}  // namespace

rc::Gen<Case> bridge_case(BridgeCaps caps) {
  const auto draw = rc::gen::construct<Draw>(
      rc::gen::inRange<std::int64_t>(2, caps.max_vocab + 1), rc::gen::inRange<std::int64_t>(1, caps.max_d + 1),
      rc::gen::inRange<std::int64_t>(1, caps.max_hidden + 1), rc::gen::inRange<std::int64_t>(1, caps.max_len + 1),
      // The head count and the initialisation scale are drawn at full size from the first case.
      rc::gen::resize(100, rc::gen::inRange<std::int64_t>(0, caps.max_d)),
      rc::gen::inRange<std::int64_t>(0, caps.max_len), rc::gen::resize(100, rc::gen::inRange(0, 3)));
  const auto raw_tokens = rc::gen::container<std::vector<std::int64_t>>(
      static_cast<std::size_t>(caps.max_len), rc::gen::inRange<std::int64_t>(0, caps.max_vocab));
  return rc::gen::apply(
      [](const Draw& w, std::uint64_t seed, const std::vector<std::int64_t>& raw_ids,
         const std::vector<std::int64_t>& raw_targets) {
        oracles::TinyGptConfig config;
        config.vocab = w.vocab;
        config.d = w.d;
        config.heads = divisor_pick(w.d, w.heads_pick);
        config.hidden = w.hidden;
        config.max_len = w.max_len;
        const std::int64_t len = w.max_len - w.len_short % w.max_len;
        std::vector<std::int64_t> ids, targets;
        for (std::int64_t t = 0; t < len; ++t) {
          ids.push_back(raw_ids[static_cast<std::size_t>(t)] % w.vocab);
          targets.push_back(raw_targets[static_cast<std::size_t>(t)] % w.vocab);
        }
        const double init_std[] = {0.02, 0.3, 1.0};
        return properties::bridge::make_bridge_case(config, seed, init_std[w.init_pick], ids, targets);
      },
      draw, rc::gen::arbitrary<std::uint64_t>(), raw_tokens, raw_tokens);
}

const CaseRules& bridge_rules() {
  static const CaseRules rules{[](const Case& c) { (void)properties::bridge::materialise_bridge(c); },
                               [](Case c) {
                                 const std::int64_t len = std::min(c.dim("len"), c.dim("max_len")),
                                                    vocab = std::max<std::int64_t>(c.dim("vocab"), 1);
                                 c.dims["len"] = len;
                                 for (const char* prefix : {"ids.", "targets."}) {
                                   for (std::int64_t t = std::max<std::int64_t>(len, 0);
                                        c.params.erase(prefix + std::to_string(t)); ++t) {
                                   }
                                   for (std::int64_t t = 0; t < len; ++t)
                                     if (auto it = c.params.find(prefix + std::to_string(t)); it != c.params.end())
                                       it->second = static_cast<double>(static_cast<std::int64_t>(it->second) % vocab);
                                 }
                                 return c;
                               }};
  return rules;
}

}  // namespace parity::gen
