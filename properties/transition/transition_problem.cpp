#include <parity/properties/transition/transition_problem.hpp>

#include <algorithm>
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/core/case_fields.hpp>
#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/limits.hpp>
#include <parity/core/normal_tensor.hpp>

namespace parity::properties::transition {
namespace {

enum Stream : std::uint32_t { kX = 1, kXProbe = 2, kV = 3, kVProbe = 4, kEps = 5, kEpsProbe = 6 };

std::int64_t positive_dim(const Case& c, const std::string& name, std::int64_t max) {
  const std::int64_t v = c.dim(name);
  if (v < 1) throw InputError("case.dims." + name + ": must be >= 1 (got " + std::to_string(v) + ")");
  if (v > max) throw InputError("case.dims." + name + ": larger than " + std::to_string(max));
  return v;
}

float schedule_value(const Case& c, const std::string& key) {
  const auto it = c.params.find(key);
  if (it == c.params.end()) throw InputError("case.params." + key + ": missing field");
  const double v = it->second;
  if (!(v >= 0.0 && v <= 1.0)) throw InputError("case.params." + key + ": must lie in [0, 1]");
  return static_cast<float>(v);
}

void apply_patches(const Case& c, const std::string& operand, Tensor& t) {
  for (std::size_t i = 0; i < c.patches.size(); ++i) {
    const Patch& p = c.patches[i];
    if (p.operand != operand) continue;
    t.set_value(p.index, static_cast<double>(bits_float(static_cast<std::uint32_t>(p.bits))));
  }
}

// sigma.<b> or sigma_prev.<b> for b in [0, B) (b in plain decimal), or a scalar parameter.
bool known_param(const std::string& key, std::int64_t B) {
  for (const char* scalar : {"sigma_max", "noise_level", "cps", "normaliser", "bf16_inputs", "other_rows"})
    if (key == scalar) return true;
  for (const std::string prefix : {"sigma.", "sigma_prev."})
    if (key.starts_with(prefix)) {
      const auto b = parse_decimal(std::string_view(key).substr(prefix.size()));
      return b && *b < static_cast<std::uint64_t>(B);
    }
  return false;
}

// The work and memory limits (docs/command.md): B n elements per operand at most 2^24 (the largest
// reference shape has 1.6e6), and x, v, eps as laid out at most kMaxCaseBytes.
void check_limits(const Case& c, std::int64_t B, std::int64_t n) {
  require_within("case.dims", "B x tokens x channels (elements per operand)",
                 static_cast<double>(B) * static_cast<double>(n), static_cast<double>(kMaxElements), "2^24");
  const double latent = flag_param(c, "bf16_inputs") ? 2.0 : 4.0;
  require_case_bytes("case.dims/case.layouts", "the storage of x, v and eps as laid out, in bytes,",
                     latent * (c.layout("x").storage_elements(B, n) + c.layout("v").storage_elements(B, n)) +
                         4.0 * c.layout("eps").storage_elements(B, n));
}

}  // namespace

bool is_transition_operand(const std::string& name) { return name == "x" || name == "v" || name == "eps"; }

void check_contract(const Case& c) {
  if (c.family != "transition") throw InputError("case.family: '" + c.family + "' is not transition");
  const std::int64_t B = positive_dim(c, "B", kMaxB), tokens = positive_dim(c, "tokens", kMaxTokens),
                     channels = positive_dim(c, "channels", kMaxChannels);
  for (const auto& [name, v] : c.dims)
    if (name != "B" && name != "tokens" && name != "channels")
      throw InputError("case.dims." + name + ": not a transition dimension (B, tokens, channels)");
  const std::int64_t n = tokens * channels;
  if (n > kMaxRowElements) throw InputError("case.dims: tokens x channels is larger than 2^22");
  refuse_unread_fields(c, {.family = "transition", .layouts = true, .probe_row = true, .patches = true});
  refuse_unknown_params(
      c, [B](const std::string& k) { return known_param(k, B); },
      "sigma.<b> and sigma_prev.<b> for b in [0, B), sigma_max, noise_level, cps, normaliser, bf16_inputs, "
      "other_rows");
  if (c.params.contains("other_rows")) {
    const double rows = c.params.at("other_rows");
    if (!(rows >= 1 && rows <= static_cast<double>(kMaxB) && rows == std::floor(rows)))
      throw InputError("case.params.other_rows: must be an integer in [1, " + std::to_string(kMaxB) + "]");
  }
  check_limits(c, B, n);
  for (const char* flag : {"cps", "normaliser", "bf16_inputs"}) flag_param(c, flag);  // 0 or 1, else InputError
  if (c.probe_row < 0 || c.probe_row >= B)
    throw InputError("case.probe_row: " + std::to_string(c.probe_row) + " is outside [0, B)");
  for (const auto& [name, l] : c.layouts)
    if (!is_transition_operand(name))
      throw InputError("case.layouts." + name + ": not a transition operand (x, v, eps)");
  for (std::size_t i = 0; i < c.patches.size(); ++i) {
    const Patch& p = c.patches[i];
    const std::string at = "case.patches[" + std::to_string(i) + "]";
    if (!is_transition_operand(p.operand))
      throw InputError(at + ".operand: '" + p.operand + "' is not a transition operand (x, v, eps)");
    if (p.index < 0 || p.index >= B * tokens * channels)
      throw InputError(at + ".index: " + std::to_string(p.index) + " is outside " + p.operand);
    if (p.bits > 0xFFFFFFFFull) throw InputError(at + ".bits: not a float32 bit pattern");
    if (p.dtype != DType::f32)
      throw InputError(at + ".dtype: " + std::string(dtype_name(p.dtype)) + ": transition patches are float32 values");
  }
  for (std::int64_t b = 0; b < B; ++b) {
    const std::string k = std::to_string(b);
    const float sigma = schedule_value(c, "sigma." + k), sigma_prev = schedule_value(c, "sigma_prev." + k);
    if (!(sigma_prev < sigma) || sigma == 0.0f)
      throw InputError("case.params.sigma_prev." + k + ": must be below sigma." + k + " (> 0)");
  }
  const auto sigma_max = static_cast<float>(c.param("sigma_max", 0.995));
  if (!(sigma_max > 0.0f && sigma_max < 1.0f)) throw InputError("case.params.sigma_max: must lie in (0, 1)");
  const double noise_level = c.param("noise_level", 0.7);
  if (!(noise_level > 0.0 && noise_level <= 1.0)) throw InputError("case.params.noise_level: must lie in (0, 1]");
}

TransitionProblem materialise(const Case& c) {
  check_contract(c);
  const std::int64_t B = c.dim("B"), n = c.dim("tokens") * c.dim("channels");
  TransitionProblem p;
  auto& in = p.in;
  for (std::int64_t b = 0; b < B; ++b) {
    in.sigma.push_back(static_cast<float>(c.params.at("sigma." + std::to_string(b))));
    in.sigma_prev.push_back(static_cast<float>(c.params.at("sigma_prev." + std::to_string(b))));
  }
  in.sigma_max = static_cast<float>(c.param("sigma_max", 0.995));
  in.noise_level = c.param("noise_level", 0.7);
  in.type = flag_param(c, "cps") ? subjects::StepType::cps : subjects::StepType::sde;
  in.normaliser = !c.params.contains("normaliser") || flag_param(c, "normaliser");
  const DType latent = flag_param(c, "bf16_inputs") ? DType::bf16 : DType::f32;

  Tensor x = normal_tensor(latent, B, n, c.seed, kX, 1.0, kXProbe, c.probe_row);
  Tensor v = normal_tensor(latent, B, n, c.seed, kV, 1.0, kVProbe, c.probe_row);
  Tensor eps = normal_tensor(DType::f32, B, n, c.seed, kEps, 1.0, kEpsProbe, c.probe_row);
  apply_patches(c, "x", x);
  apply_patches(c, "v", v);
  apply_patches(c, "eps", eps);
  in.x = c.layout("x").place(x);
  in.v = c.layout("v").place(v);
  in.eps = c.layout("eps").place(eps);
  return p;
}

}  // namespace parity::properties::transition
