#pragma once
// The small joint audio-video DiT of the MiniMax-H3 shape (docs/math.md, "The joint audio-video
// DiT"): its sizes, how a token count splits into video, text and audio tokens, and the
// names of its boundaries and nodes.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace parity::model {

struct ModelConfig {
  int width = 64;           // D
  int heads = 4;            // D / heads = head_dim
  int rope_dims = 8;        // rotated dims at the start of each head (even, <= head_dim)
  int ff_hidden = 128;      // SwiGLU hidden size F
  int blocks = 2;           // joint blocks
  int refiner_blocks = 1;   // token-refiner blocks on the text tokens
  int video_channels = 16;  // per video token (a patch of latents), float32
  int audio_channels = 8;   // per audio token, float32
  int text_channels = 32;   // per text token, bfloat16
  int time_freqs = 256;     // sinusoidal timestep features (RMSNorm's eps is docs/math.md's 1e-5)
  int head_dim() const { return width / heads; }
  // Throws InputError naming the field if a size is out of range or inconsistent.
  void validate() const;
};

// One sample's packed sequence: video tokens, then text, then audio.
struct TokenSplit {
  std::int64_t video = 0, text = 0, audio = 0;
  std::int64_t total() const { return video + text + audio; }
  // The fixed rule used everywhere: text = max(1, total/16), audio = max(1, total/8),
  // video = the rest; needs total >= 3.
  static TokenSplit of(std::int64_t total);
};

// Top-level boundaries in the order a forward meets them, and the node kinds of a block.
const std::vector<std::string>& boundary_names();
const std::vector<std::string>& node_kinds();  // "modulation", "attention", "feed_forward"
// "blocks.<i>.<kind>"; the modulation nodes are one per modality: "blocks.<i>.modulation.video".
std::string node_name(int block, const std::string& kind);
// Every node the model calls, (name, kind), in order.
std::vector<std::pair<std::string, std::string>> node_calls(const ModelConfig& config);

}  // namespace parity::model
