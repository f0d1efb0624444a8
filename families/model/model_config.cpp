#include <parity/families/model/model_config.hpp>

#include <algorithm>

#include <parity/core/error.hpp>

namespace parity::model {

void ModelConfig::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("model config: " + what);
  };
  need(width >= 2 && width <= 4096, "width must be in [2, 4096]");
  need(heads >= 1 && width % heads == 0, "heads must divide width");
  need(rope_dims >= 0 && rope_dims % 2 == 0 && rope_dims <= head_dim(), "rope_dims must be even and <= head_dim");
  need(ff_hidden >= 1 && ff_hidden <= 16384, "ff_hidden must be in [1, 16384]");
  need(blocks >= 0 && blocks <= 64, "blocks must be in [0, 64]");
  need(refiner_blocks >= 0 && refiner_blocks <= 16, "refiner_blocks must be in [0, 16]");
  need(video_channels >= 1 && audio_channels >= 1 && text_channels >= 1, "channel counts must be >= 1");
  need(time_freqs >= 2 && time_freqs % 2 == 0, "time_freqs must be even and >= 2");
}

TokenSplit TokenSplit::of(std::int64_t total) {
  if (total < 3 || total > (1 << 20))
    throw InputError("tokens must be in [3, 2^20] (one video, one text and one audio token at least), got " +
                     std::to_string(total));
  TokenSplit s;
  s.text = std::max<std::int64_t>(1, total / 16);
  s.audio = std::max<std::int64_t>(1, total / 8);
  s.video = total - s.text - s.audio;
  return s;
}

const std::vector<std::string>& boundary_names() {
  static const std::vector<std::string> names = {"proj_in",       "audio_proj_in",  "context_embedder",
                                                 "token_refiner", "time_embedder",  "norm_out",
                                                 "proj_out",      "audio_proj_out", "transition"};
  return names;
}

const std::vector<std::string>& node_kinds() {
  static const std::vector<std::string> kinds = {"modulation", "attention", "feed_forward"};
  return kinds;
}

std::string node_name(int block, const std::string& kind) { return "blocks." + std::to_string(block) + "." + kind; }

std::vector<std::pair<std::string, std::string>> node_calls(const ModelConfig& config) {
  std::vector<std::pair<std::string, std::string>> calls;
  for (int i = 0; i < config.blocks; ++i) {
    for (const char* m : {"video", "text", "audio"})
      calls.push_back({node_name(i, "modulation") + "." + m, "modulation"});
    calls.push_back({node_name(i, "attention"), "attention"});
    calls.push_back({node_name(i, "feed_forward"), "feed_forward"});
  }
  return calls;
}

}  // namespace parity::model
