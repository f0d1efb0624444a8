#include <parity/properties/bridge/bridge_problem.hpp>

#include <cmath>

#include <parity/core/case_fields.hpp>
#include <parity/core/error.hpp>
#include <parity/core/limits.hpp>

namespace parity::properties::bridge {
namespace {

constexpr double kDefaultInitStd = 0.02;
constexpr double kMaxInitStd = 10.0;

std::int64_t positive_dim(const Case& c, const std::string& name, std::int64_t max) {
  const std::int64_t v = c.dim(name);
  if (v < 1 || v > max)
    throw InputError("case.dims." + name + ": must be in [1, " + std::to_string(max) + "] (got " + std::to_string(v) +
                     ")");
  return v;
}

nlohmann::json token_value(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0) return static_cast<std::int64_t>(v);
  return v;
}

// ids.<t> (or targets.<t>) for t in [0, len), and nothing else under that prefix.
nlohmann::json tokens(const Case& c, const std::string& prefix, std::int64_t len) {
  nlohmann::json out = nlohmann::json::array();
  for (std::int64_t t = 0; t < len; ++t) {
    const std::string key = prefix + "." + std::to_string(t);
    const auto it = c.params.find(key);
    if (it == c.params.end()) throw InputError("case.params." + key + ": missing (len is " + std::to_string(len) + ")");
    out.push_back(token_value(it->second));
  }
  for (const auto& entry : c.params) {
    const std::string& key = entry.first;
    if (!key.starts_with(prefix + ".")) continue;
    const std::string index = key.substr(prefix.size() + 1);
    bool position = !index.empty() && index.size() < 10;
    for (char ch : index) position = position && ch >= '0' && ch <= '9';
    if (!position || std::stoll(index) >= len || std::to_string(std::stoll(index)) != index)
      throw InputError("case.params." + key + ": not a position in [0, " + std::to_string(len) + ")");
  }
  return out;
}

// The work and memory limits (docs/command.md), checked before the parameters are drawn. One pass
// (forward and backward) costs about len (4 d^2 + 2 d hidden + d vocab) + 2 len^2 d
// multiply-adds, at most 2^28 (a second or so in float64); the parameters (embeddings,
// attention, MLP, head) and activations (per position, and heads x len^2 attention weights),
// four times over (values, gradients, LibTorch's copies and autograd's saved tensors), take
// 32 (2 vocab d + max_len d + 4 d^2 + 2 d hidden + len (8 d + hidden + vocab) + heads len^2)
// bytes, at most kMaxCaseBytes.
void check_limits(const oracles::TinyGptConfig& cfg, std::int64_t len) {
  const double v = static_cast<double>(cfg.vocab), d = static_cast<double>(cfg.d), h = static_cast<double>(cfg.heads),
               f = static_cast<double>(cfg.hidden), m = static_cast<double>(cfg.max_len), n = static_cast<double>(len);
  require_within("case.dims", "the multiply-adds of one pass", n * (4 * d * d + 2 * d * f + d * v) + 2 * n * n * d,
                 0x1p28, "2^28");
  require_case_bytes("case.dims", "the parameters and activations, in bytes,",
                     32 * (2 * v * d + m * d + 4 * d * d + 2 * d * f + n * (8 * d + f + v) + h * n * n));
}

}  // namespace

BridgeProblem materialise_bridge(const Case& c) {
  BridgeProblem p;
  p.config.vocab = positive_dim(c, "vocab", 4096);
  p.config.d = positive_dim(c, "d", 512);
  p.config.heads = positive_dim(c, "heads", 512);
  p.config.hidden = positive_dim(c, "hidden", 4096);
  p.config.max_len = positive_dim(c, "max_len", 4096);
  p.len = positive_dim(c, "len", 4096);
  if (p.config.d % p.config.heads != 0)
    throw InputError("case.dims.heads: " + std::to_string(p.config.heads) +
                     " does not divide d = " + std::to_string(p.config.d));
  for (const auto& [name, v] : c.dims)
    if (name != "vocab" && name != "d" && name != "heads" && name != "hidden" && name != "max_len" && name != "len")
      throw InputError("case.dims." + name + ": not a bridge dimension (vocab, d, heads, hidden, max_len, len)");
  refuse_unread_fields(c, {.family = "bridge"});
  refuse_unknown_params(
      c, [](const std::string& k) { return k == "init_std" || k.starts_with("ids.") || k.starts_with("targets."); },
      "init_std, ids.<t>, targets.<t>");
  check_limits(p.config, p.len);
  const double init_std = c.param("init_std", kDefaultInitStd);
  // Past 10 the float64 model saturates (one-hot softmax, zero gradients by right) or
  // overflows to NaN, and no comparison means anything there.
  if (!(init_std > 0.0 && init_std <= kMaxInitStd)) throw InputError("case.params.init_std: must lie in (0, 10]");
  p.params = oracles::init_params(p.config, c.seed, init_std);
  p.ids = tokens(c, "ids", p.len);
  p.targets = tokens(c, "targets", p.len);
  return p;
}

Case make_bridge_case(const oracles::TinyGptConfig& config, std::uint64_t seed, double init_std,
                      const std::vector<std::int64_t>& ids, const std::vector<std::int64_t>& targets) {
  Case c;
  c.family = "bridge";
  c.seed = seed;
  c.dims = {{"vocab", config.vocab},     {"d", config.d},
            {"heads", config.heads},     {"hidden", config.hidden},
            {"max_len", config.max_len}, {"len", static_cast<std::int64_t>(ids.size())}};
  c.params["init_std"] = init_std;
  for (std::size_t t = 0; t < ids.size(); ++t) c.params["ids." + std::to_string(t)] = static_cast<double>(ids[t]);
  for (std::size_t t = 0; t < targets.size(); ++t)
    c.params["targets." + std::to_string(t)] = static_cast<double>(targets[t]);
  return c;
}

Case reference_bridge_case() {
  oracles::TinyGptConfig config;  // vocab 9, d 4, heads 1, hidden 7, max_len 8
  return make_bridge_case(config, 31, kDefaultInitStd, {1, 3, 1, 5, 2}, {3, 1, 5, 2, 6});
}

}  // namespace parity::properties::bridge
