#include <parity/families/model/model_problem.hpp>

#include <algorithm>

#include <parity/core/case_fields.hpp>
#include <parity/core/error.hpp>
#include <parity/core/limits.hpp>

namespace parity::properties::model {
namespace {

using parity::model::ModelConfig;

bool known_target(const runtime::Ablation& a, const ModelConfig& config) {
  const auto& kinds = parity::model::node_kinds();
  if (a.scope == runtime::Ablation::Scope::node_kind)
    return std::find(kinds.begin(), kinds.end(), a.name) != kinds.end();
  const auto& names = parity::model::boundary_names();
  if (std::find(names.begin(), names.end(), a.name) != names.end()) return true;
  for (const auto& [name, kind] : parity::model::node_calls(config))
    if (name == a.name) return true;
  return false;
}

std::string known_targets() {
  std::string s = "node:modulation, node:attention, node:feed_forward";
  for (const auto& b : parity::model::boundary_names()) s += ", boundary:" + b;
  return s + ", boundary:blocks.<i>.<node>";
}

}  // namespace

ModelProblem ModelProblem::from(const Case& c) {
  if (c.family != "model") throw InputError("case.family: expected 'model', got '" + c.family + "'");
  ModelConfig config;
  // Range-checked before narrowing to int (ModelConfig::validate states the exact ranges).
  auto small = [&c](const char* name) {
    const std::int64_t v = c.dim(name);
    if (v < 0 || v > 1 << 20) throw InputError(std::string("case.dims.") + name + ": out of range");
    return static_cast<int>(v);
  };
  config.width = small("width");
  config.heads = small("heads");
  config.blocks = small("blocks");
  config.refiner_blocks = small("refiner_blocks");
  if (config.heads < 1 || config.width % config.heads != 0)
    throw InputError("case.dims.heads: must divide case.dims.width");
  const int head_dim = config.width / config.heads;
  config.rope_dims = std::min(8, head_dim - head_dim % 2);
  config.ff_hidden = 2 * config.width;
  config.validate();
  for (const auto& [name, v] : c.dims)
    if (name != "tokens" && name != "batch" && name != "blocks" && name != "refiner_blocks" && name != "width" &&
        name != "heads")
      throw InputError("case.dims." + name +
                       ": not a model dimension (tokens, batch, blocks, refiner_blocks, width, heads)");
  refuse_unread_fields(c, {.family = "model", .probe_row = true, .mode = true, .ablations = true});
  refuse_unknown_params(
      c,
      [](const std::string& k) {
        return k == "bind_video_projections" || k == "bind_all" || k == "audio_bf16" || k == "shared_sigma";
      },
      "bind_video_projections, bind_all, audio_bf16, shared_sigma");
  const std::int64_t batch = c.dim("batch");
  if (batch < 1 || batch > 64) throw InputError("case.dims.batch: must lie in [1, 64]");
  check_model_limits(config, c.dim("tokens"), batch, 1.0, "case.dims");
  if (c.probe_row < 0 || c.probe_row >= batch) throw InputError("case.probe_row: must lie in [0, batch)");

  runtime::RuntimeOptions options;
  options.mode = runtime::parse_mode(c.mode);
  for (const auto& text : c.ablations) {
    const auto a = runtime::parse_ablation(text);
    if (!known_target(a, config))
      throw InputError("case.ablations: unknown target '" + text + "' (known: " + known_targets() + ")");
    options.ablations.push_back(a);
  }
  options.bind_video_projections = flag_param(c, "bind_video_projections");
  options.bind_all = flag_param(c, "bind_all");
  const DType audio = flag_param(c, "audio_bf16") ? DType::bf16 : DType::f32;

  ModelProblem p{config, parity::model::ModelWeights::draw(config, c.seed),
                 parity::model::ModelBatch::draw(config, parity::model::TokenSplit::of(c.dim("tokens")), c.seed + 1, 0,
                                                 batch, audio),
                 options, c.probe_row};
  if (flag_param(c, "shared_sigma"))
    for (std::int64_t b = 1; b < batch; ++b) {
      p.batch.timestep.set_bits(b, p.batch.timestep.bits_at(0));
      p.batch.sigma_prev.set_bits(b, p.batch.sigma_prev.bits_at(0));
    }
  return p;
}

void check_model_limits(const ModelConfig& config, std::int64_t tokens, std::int64_t batch, double passes,
                        const std::string& field) {
  const double t = static_cast<double>(tokens), b = static_cast<double>(batch), w = config.width,
               layers = config.blocks + config.refiner_blocks;
  require_within(field, "the multiply-adds of the forwards",
                 passes * b * std::max(layers, 1.0) * (10 * t * w * w + 2 * t * t * w), 0x1p35, "2^35");
  require_case_bytes(field, "the weights, activations and attention scores, in bytes,",
                     4 * (28 * std::max(layers, 1.0) * w * w + 32 * b * t * w + b * config.heads * t * t));
}

Case model_case(std::int64_t tokens, std::int64_t batch, std::uint64_t seed, const std::string& mode) {
  Case c;
  c.family = "model";
  c.seed = seed;
  c.dims = {{"tokens", tokens}, {"batch", batch}, {"blocks", 2}, {"refiner_blocks", 1}, {"width", 64}, {"heads", 4}};
  c.mode = mode;
  return c;
}

}  // namespace parity::properties::model
