#include <parity/oracles/tiny_gpt_model.hpp>

#include <cmath>

#include <parity/core/error.hpp>
#include <parity/core/random_fill.hpp>

namespace parity::oracles {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxExtent = 4096;

void require_extent(std::int64_t v, const char* field) {
  if (v < 1 || v > kMaxExtent)
    throw InputError(std::string("config.") + field + ": must be in [1, " + std::to_string(kMaxExtent) + "] (got " +
                     std::to_string(v) + ")");
}

std::vector<std::int64_t> expected_shape(const TinyGptConfig& c, const std::string& name) {
  if (name == "tok_emb" || name == "W_out") return {c.vocab, c.d};
  if (name == "pos_emb") return {c.max_len, c.d};
  if (name == "Wq" || name == "Wk" || name == "Wv" || name == "Wo") return {c.d, c.d};
  if (name == "W1") return {c.hidden, c.d};
  if (name == "b1") return {c.hidden};
  if (name == "W2") return {c.d, c.hidden};
  if (name == "b_out") return {c.vocab};
  return {c.d};  // LayerNorm gains and biases, b2
}

bool is_gain(const std::string& name) { return name.size() > 2 && name.ends_with("_g"); }

std::int64_t count(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

std::string refuse(const std::string& detail) { return std::string(kTokenRefusal) + ": " + detail; }

// One token: an integer in [0, vocab), or a refusal naming where it sits.
std::int64_t token(const json& v, const std::string& where, std::int64_t vocab) {
  if (v.is_boolean()) throw InputError(refuse(where + ": " + v.dump() + " is a boolean, not an integer id"));
  if (!v.is_number_integer()) throw InputError(refuse(where + ": " + v.dump() + " is not an integer"));
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(vocab))
    throw InputError(refuse(where + ": " + v.dump() + " is outside [0, " + std::to_string(vocab) + ")"));
  const std::int64_t id = v.get<std::int64_t>();
  if (id < 0 || id >= vocab)
    throw InputError(refuse(where + ": " + v.dump() + " is outside [0, " + std::to_string(vocab) + ")"));
  return id;
}

}  // namespace

double TinyGptConfig::scale() const {
  return attention_scale != 0.0 ? attention_scale : 1.0 / std::sqrt(static_cast<double>(d_head()));
}

void validate_config(const TinyGptConfig& c) {
  require_extent(c.vocab, "vocab");
  require_extent(c.d, "d");
  require_extent(c.heads, "heads");
  require_extent(c.hidden, "hidden");
  require_extent(c.max_len, "max_len");
  if (c.d % c.heads != 0)
    throw InputError("config.heads: " + std::to_string(c.heads) + " does not divide d = " + std::to_string(c.d));
  if (!(c.ln_eps > 0.0) || !std::isfinite(c.ln_eps))
    throw InputError("config.ln_eps: must be a finite value > 0 (got " + std::to_string(c.ln_eps) + ")");
  if (!(c.attention_scale >= 0.0) || !std::isfinite(c.attention_scale))
    throw InputError("config.attention_scale: must be finite and >= 0 (0: 1/sqrt(d_head))");
}

std::string gelu_name(Gelu g) { return g == Gelu::tanh ? "tanh" : "exact"; }

const std::array<ParamSlot, kTinyGptParamCount>& tiny_gpt_param_slots() {
  using P = TinyGptParams;
  static const std::array<ParamSlot, kTinyGptParamCount> slots = {{
      {"tok_emb", &P::tok_emb},
      {"pos_emb", &P::pos_emb},
      {"ln1_g", &P::ln1_g},
      {"ln1_b", &P::ln1_b},
      {"Wq", &P::Wq},
      {"Wk", &P::Wk},
      {"Wv", &P::Wv},
      {"Wo", &P::Wo},
      {"ln2_g", &P::ln2_g},
      {"ln2_b", &P::ln2_b},
      {"W1", &P::W1},
      {"b1", &P::b1},
      {"W2", &P::W2},
      {"b2", &P::b2},
      {"lnf_g", &P::lnf_g},
      {"lnf_b", &P::lnf_b},
      {"W_out", &P::W_out},
      {"b_out", &P::b_out},
  }};
  return slots;
}

TinyGptParams zero_params(const TinyGptConfig& c) {
  validate_config(c);
  TinyGptParams p;
  for (const auto& slot : tiny_gpt_param_slots()) {
    Param& t = p.*slot.member;
    t.shape = expected_shape(c, slot.name);
    t.values.assign(static_cast<std::size_t>(count(t.shape)), 0.0);
  }
  return p;
}

TinyGptParams init_params(const TinyGptConfig& c, std::uint64_t seed, double init_std) {
  if (!(init_std > 0.0) || !std::isfinite(init_std))
    throw InputError("init_std: must be a finite value > 0 (got " + std::to_string(init_std) + ")");
  TinyGptParams p = zero_params(c);
  const auto& slots = tiny_gpt_param_slots();
  for (std::size_t s = 0; s < slots.size(); ++s) {
    const std::string name = slots[s].name;
    Param& t = p.*slots[s].member;
    const double offset = is_gain(name) ? 1.0 : 0.0;
    for (std::size_t i = 0; i < t.values.size(); ++i)
      t.values[i] = offset + init_std * philox_normal(seed, static_cast<std::uint32_t>(s + 1), i);
  }
  return p;
}

void validate_params(const TinyGptConfig& c, const TinyGptParams& p) {
  validate_config(c);
  for (const auto& slot : tiny_gpt_param_slots()) {
    const Param& t = p.*slot.member;
    const auto want = expected_shape(c, slot.name);
    if (t.shape != want)
      throw InputError(std::string("params.") + slot.name + ": shape " + shape_text(t.shape) + ", expected " +
                       shape_text(want));
    if (static_cast<std::int64_t>(t.values.size()) != count(want))
      throw InputError(std::string("params.") + slot.name + ": " + std::to_string(t.values.size()) +
                       " values for shape " + shape_text(want));
  }
}

std::int64_t param_elements(const TinyGptParams& p) {
  std::int64_t n = 0;
  for (const auto& slot : tiny_gpt_param_slots()) n += static_cast<std::int64_t>((p.*slot.member).values.size());
  return n;
}

Tokens validate_tokens(const json& ids, const json& targets, const TinyGptConfig& c) {
  validate_config(c);
  if (!ids.is_array()) throw InputError(refuse("ids: " + ids.dump() + " is not a list"));
  if (!targets.is_array()) throw InputError(refuse("targets: " + targets.dump() + " is not a list"));
  if (ids.empty()) throw InputError(refuse("ids: empty"));
  if (targets.size() != ids.size())
    throw InputError(refuse("targets: " + std::to_string(targets.size()) +
                            (targets.size() == 1 ? " value for " : " values for ") + std::to_string(ids.size()) +
                            (ids.size() == 1 ? " id" : " ids")));
  if (static_cast<std::int64_t>(ids.size()) > c.max_len)
    throw InputError(refuse("ids: " + std::to_string(ids.size()) + " tokens for max_len " + std::to_string(c.max_len) +
                            " positions"));
  Tokens t;
  for (std::size_t i = 0; i < ids.size(); ++i)
    t.ids.push_back(token(ids[i], "ids[" + std::to_string(i) + "]", c.vocab));
  for (std::size_t i = 0; i < targets.size(); ++i)
    t.targets.push_back(token(targets[i], "targets[" + std::to_string(i) + "]", c.vocab));
  return t;
}

}  // namespace parity::oracles
