#include <parity/families/model/model_cases.hpp>

#include <string>
#include <utility>
#include <vector>

#include <parity/families/model/model_problem.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity::gen {
namespace {

struct ModelDraw {
  std::int64_t tokens, batch, blocks, refiner, probe_pick;
  std::pair<std::int64_t, std::int64_t> width_heads;
  std::string mode, ablation;
  int video_bound, all_bound, audio_pick, shared_sigma;
};

}  // namespace

rc::Gen<Case> model_case(ModelCaps caps) {
  const auto draw = rc::gen::construct<ModelDraw>(
      rc::gen::inRange<std::int64_t>(3, caps.max_tokens + 1),
      // Uniform at every size: a batch of one discards batch_invariant_bound.
      rc::gen::resize(100, rc::gen::inRange<std::int64_t>(1, caps.max_batch + 1)),
      shrinking_element<std::int64_t>({0, 1, 2}), shrinking_element<std::int64_t>({0, 1}),
      rc::gen::resize(100, rc::gen::inRange<std::int64_t>(0, caps.max_batch)),
      shrinking_element<std::pair<std::int64_t, std::int64_t>>({{16, 1}, {16, 2}, {32, 2}, {32, 4}, {64, 4}}),
      shrinking_element<std::string>({"strict", "audit", "auto", "off"}),
      shrinking_element<std::string>({"", "", "", "", "", "", "node:attention", "node:feed_forward",
                                      "boundary:token_refiner", "boundary:audio_proj_in", "boundary:transition",
                                      "boundary:blocks.0.attention"}),
      shrinking_element<int>({0, 1}), shrinking_element<int>({0, 1}), shrinking_element<int>({0, 0, 0, 0, 1}),
      shrinking_element<int>({0, 1}));
  return rc::gen::apply(
      [](const ModelDraw& d, std::uint64_t seed) {
        Case c;
        c.family = "model";
        c.seed = seed;
        c.dims = {{"tokens", d.tokens},           {"batch", d.batch},
                  {"blocks", d.blocks},           {"refiner_blocks", d.refiner},
                  {"width", d.width_heads.first}, {"heads", d.width_heads.second}};
        c.mode = d.mode;
        // A block's node exists only when the model has a block.
        if (!d.ablation.empty() && !(d.ablation == "boundary:blocks.0.attention" && d.blocks == 0))
          c.ablations.push_back(d.ablation);
        c.params["bind_video_projections"] = d.video_bound;
        c.params["bind_all"] = d.all_bound;
        c.params["audio_bf16"] = d.audio_pick;
        c.params["shared_sigma"] = d.shared_sigma;
        c.probe_row = d.probe_pick % d.batch;
        return c;
      },
      draw, rc::gen::arbitrary<std::uint64_t>());
}

const CaseRules& model_rules() {
  static const CaseRules rules{[](const Case& c) { (void)properties::model::ModelProblem::from(c); },
                               [](Case c) {
                                 c.probe_row = std::min(c.probe_row, std::max<std::int64_t>(c.dim("batch"), 1) - 1);
                                 if (c.dim("blocks") == 0)
                                   std::erase(c.ablations, std::string("boundary:blocks.0.attention"));
                                 return c;
                               }};
  return rules;
}

}  // namespace parity::gen
