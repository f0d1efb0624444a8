#include <parity/fuzz/decode_transition.hpp>

#include <algorithm>
#include <cmath>

#include <parity/core/error.hpp>
#include <parity/fuzz/byte_reader.hpp>
#include <parity/fuzz/fuzz_values.hpp>

namespace parity::fuzz {
namespace {

const std::vector<std::string> kTransitionOperands = {"x", "v", "eps"};
const double kSigmaMax[] = {0.995, 0.98, 0.9997, 0.5};
const double kNoiseLevel[] = {0.7, 0.5, 1.0, 0.1};
constexpr std::int64_t kMaxChannels = 96;
constexpr int kSmallBatchBytes = 248;

std::int64_t batch_of(std::uint8_t b) {
  return b < kSmallBatchBytes ? 1 + b % kTransitionMaxRows : kTransitionRealisticBatches[b - kSmallBatchBytes];
}

// The byte that decodes to B, or -1.
int batch_byte(std::int64_t B) {
  if (B >= 1 && B <= kTransitionMaxRows) return static_cast<int>(B - 1);
  for (std::size_t i = 0; i < std::size(kTransitionRealisticBatches); ++i)
    if (kTransitionRealisticBatches[i] == B) return kSmallBatchBytes + static_cast<int>(i);
  return -1;
}

// The row's tokens: 3 values of u in 4 draw a short row (up to kTransitionSmallRowTokens), the
// rest any length up to kTransitionMaxRowLength / channels.
constexpr std::uint16_t kLongRowTokens = 0xC000;
std::int64_t short_row_tokens(std::int64_t channels) {
  return std::min(kTransitionSmallRowTokens, kTransitionMaxRowLength / channels);
}
std::int64_t tokens_of(std::uint16_t u, std::int64_t channels) {
  return u < kLongRowTokens ? 1 + u % short_row_tokens(channels)
                            : 1 + (u - kLongRowTokens) % (kTransitionMaxRowLength / channels);
}
// The u16 that decodes to `tokens` (1 <= tokens <= kTransitionMaxRowLength / channels).
std::uint16_t tokens_word(std::int64_t tokens, std::int64_t channels) {
  return static_cast<std::uint16_t>(tokens <= short_row_tokens(channels) ? tokens - 1 : kLongRowTokens + tokens - 1);
}

double sigma_of(std::uint16_t u) { return u == 0xFFFF ? 1.0 : static_cast<float>((u + 1.0) / 65536.0); }
double sigma_prev_of(double sigma, std::uint8_t b) { return static_cast<float>(sigma * (b / 256.0)); }

template <class T, std::size_t N>
int index_of(const T (&table)[N], T v) {
  const auto it = std::find(std::begin(table), std::end(table), v);
  if (it == std::end(table)) throw InputError("encode_transition: a parameter has no encoding");
  return static_cast<int>(it - std::begin(table));
}

}  // namespace

const std::vector<std::string>& transition_fuzz_properties() {
  static const std::vector<std::string> all = {"scoring_reproduces_sampling"};
  return all;
}

FuzzInput decode_transition(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  FuzzInput out;
  out.property = transition_fuzz_properties()[in.u8() % transition_fuzz_properties().size()];
  Case& c = out.c;
  c.family = "transition";
  const std::int64_t B = batch_of(in.u8());
  const std::int64_t channels = 1 + in.u8() % kMaxChannels;
  const std::int64_t tokens =
      std::clamp<std::int64_t>(kTransitionWorkBudget / (B * channels), 1, tokens_of(in.u16(), channels));
  c.dims = {{"B", B}, {"tokens", tokens}, {"channels", channels}};
  c.probe_row = in.u8() % B;
  const std::uint8_t flags = in.u8();
  if ((flags & 3u) == 1) c.params["cps"] = 1.0;
  if ((flags & 3u) == 2) c.params["normaliser"] = 0.0;
  if (flags & 4u) c.params["bf16_inputs"] = 1.0;
  c.params["sigma_max"] = kSigmaMax[(flags >> 3) & 3u];
  c.params["noise_level"] = kNoiseLevel[(flags >> 5) & 3u];
  for (const auto& op : kTransitionOperands)
    if (const Layout l = decode_layout(in.u8()); !l.is_contiguous()) c.layouts[op] = l;
  c.seed = in.u64();
  for (std::int64_t b = 0; b < std::min(B, kTransitionMaxRows); ++b) {
    const double sigma = sigma_of(in.u16());
    c.params["sigma." + std::to_string(b)] = sigma;
    c.params["sigma_prev." + std::to_string(b)] = sigma_prev_of(sigma, in.u8());
  }
  for (std::int64_t b = kTransitionMaxRows; b < B; ++b) {
    c.params["sigma." + std::to_string(b)] = c.params["sigma." + std::to_string(b % kTransitionMaxRows)];
    c.params["sigma_prev." + std::to_string(b)] = c.params["sigma_prev." + std::to_string(b % kTransitionMaxRows)];
  }
  const std::int64_t size = B * tokens * channels;
  const std::vector<std::int64_t> sizes = {size, size, size};
  while (in.remaining() > 0 && c.patches.size() < 16) c.patches.push_back(decode_patch(in, kTransitionOperands, sizes));
  return out;
}

std::vector<std::uint8_t> encode_transition(const FuzzInput& in) {
  const Case& c = in.c;
  const auto& props = transition_fuzz_properties();
  const auto prop = std::find(props.begin(), props.end(), in.property);
  if (c.family != "transition" || prop == props.end())
    throw InputError("encode_transition: not a transition fuzz input");
  const std::int64_t B = c.dim("B"), tokens = c.dim("tokens"), channels = c.dim("channels");
  bool repeats = true;  // rows past kTransitionMaxRows repeat the sigmas of row b % 8
  for (std::int64_t b = kTransitionMaxRows; b < B; ++b)
    for (const char* p : {"sigma.", "sigma_prev."})
      repeats =
          repeats && c.param(p + std::to_string(b), -1.0) == c.param(p + std::to_string(b % kTransitionMaxRows), -2.0);
  if (batch_byte(B) < 0 || channels < 1 || channels > kMaxChannels || tokens < 1 ||
      tokens > kTransitionMaxRowLength / channels || B * tokens * channels > kTransitionWorkBudget || !repeats ||
      c.patches.size() > 16)
    throw InputError("encode_transition: " + c.summary() + " is outside the harness caps");
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(prop - props.begin()));
  w.u8(static_cast<std::uint8_t>(batch_byte(B)));
  w.u8(static_cast<std::uint8_t>(channels - 1));
  w.u16(tokens_word(tokens, channels));
  w.u8(static_cast<std::uint8_t>(c.probe_row));
  const int step = c.param("cps", 0.0) != 0.0 ? 1 : c.param("normaliser", 1.0) == 0.0 ? 2 : 0;
  w.u8(static_cast<std::uint8_t>(step | (c.param("bf16_inputs", 0.0) != 0.0 ? 4 : 0) |
                                 index_of(kSigmaMax, c.param("sigma_max", 0.995)) << 3 |
                                 index_of(kNoiseLevel, c.param("noise_level", 0.7)) << 5));
  for (const auto& op : kTransitionOperands) w.u8(encode_layout(c.layout(op)));
  w.u64(c.seed);
  for (std::int64_t b = 0; b < std::min(B, kTransitionMaxRows); ++b) {
    const double sigma = c.param("sigma." + std::to_string(b), 1.0);
    const double prev = c.param("sigma_prev." + std::to_string(b), 0.0);
    const auto u = sigma >= 1.0 ? std::uint16_t{0xFFFF}
                                : static_cast<std::uint16_t>(std::clamp(std::lround(sigma * 65536.0) - 1, 0L, 0xFFFEL));
    w.u16(u);
    w.u8(static_cast<std::uint8_t>(std::clamp(std::lround(prev / sigma_of(u) * 256.0), 0L, 255L)));
  }
  for (const Patch& p : c.patches) encode_patch(w, p, kTransitionOperands);
  return w.bytes();
}

}  // namespace parity::fuzz
