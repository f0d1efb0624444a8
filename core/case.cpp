#include <parity/core/case.hpp>

#include <cstring>

#include <nlohmann/json.hpp>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/json_read.hpp>

namespace parity {

using nlohmann::json;
namespace jr = json_read;

std::int64_t Case::dim(const std::string& name) const {
  auto it = dims.find(name);
  if (it == dims.end()) throw InputError("case.dims." + name + ": missing field");
  return it->second;
}

Layout Case::layout(const std::string& operand) const {
  auto it = layouts.find(operand);
  return it == layouts.end() ? Layout{} : it->second;
}

double Case::param(const std::string& name, double fallback) const {
  auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

namespace {

// ", bf16 max" and the like: the name of a 16-bit dtype's special magnitude (`max` and
// `min_normal` its bits; 0x0001 is every such dtype's denorm min), or "".
struct Specials16 {
  std::uint64_t max, min_normal;
};
std::string special_16_name(const char* dtype, std::uint64_t bits, Specials16 specials) {
  const std::uint64_t magnitude = bits & 0x7FFFu;
  if (magnitude == specials.max) return std::string(", ") + dtype + " max";
  if (magnitude == specials.min_normal) return std::string(", ") + dtype + " min normal";
  if (magnitude == 0x0001u) return std::string(", ") + dtype + " denorm min";
  return "";
}

// A patch's value, and the name of a special value it is: "3.38953139e+38 (bits 0x7f7f0000,
// bf16 max)" for float32 bits, "inf (bf16 bits 0x7f80)" for another dtype's.
std::string patch_value_text(const Patch& p) {
  const std::uint64_t bits = p.bits;
  if (dtype_size(p.dtype) < 8 && bits >> (8 * dtype_size(p.dtype)) != 0)
    return "(" + std::string(dtype_name(p.dtype)) + " bits " + jr::hex_bits(bits, 8) + ", wider than " +
           std::string(dtype_name(p.dtype)) + ")";
  double value = 0.0;
  std::string name;
  switch (p.dtype) {
    case DType::f32: {
      const auto u = static_cast<std::uint32_t>(bits);
      switch (u & 0x7FFFFFFFu) {
        case 0x7F7F0000u:
          name = ", bf16 max";
          break;
        case 0x7F7FFFFFu:
          name = ", float32 max";
          break;
        case 0x00800000u:
          name = ", float32 min normal";
          break;
        case 0x00000001u:
          name = ", float32 denorm min";
          break;
      }
      return number_text(static_cast<double>(bits_float(u))) + " (bits " + jr::hex_bits(bits, 8) + name + ")";
    }
    case DType::bf16:
      value = bf16_to_float(static_cast<std::uint16_t>(bits));
      name = special_16_name("bf16", bits, {0x7F7F, 0x0080});
      break;
    case DType::f16:
      value = f16_to_float(static_cast<std::uint16_t>(bits));
      name = special_16_name("f16", bits, {0x7BFF, 0x0400});
      break;
    case DType::f64:
      std::memcpy(&value, &bits, sizeof value);
      break;
  }
  return number_text(value) + " (" + std::string(dtype_name(p.dtype)) + " bits " +
         jr::hex_bits(bits, static_cast<int>(2 * dtype_size(p.dtype))) + name + ")";
}

constexpr std::size_t kPatchesShown = 4;

// parse_dtype, its error naming `where`.
DType parse_dtype_field(const std::string& text, const std::string& where) {
  try {
    return parse_dtype(text);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

}  // namespace

std::string Case::summary() const {
  std::string s = family;
  for (const auto& [k, v] : dims) s += " " + k + "=" + std::to_string(v);
  s += " seed=" + std::to_string(seed) + " probe_row=" + std::to_string(probe_row);
  for (const auto& [k, v] : layouts)
    if (!v.is_contiguous()) s += " " + k + ":" + v.name();
  if (family == "model") s += " mode=" + mode;
  for (const auto& a : ablations) s += " native=" + a;
  for (std::size_t i = 0; i < patches.size() && i < kPatchesShown; ++i)
    s += (i ? ", " : " patches: ") + patches[i].operand + "[" + std::to_string(patches[i].index) +
         "] = " + patch_value_text(patches[i]);
  if (patches.size() > kPatchesShown) s += " and " + std::to_string(patches.size() - kPatchesShown) + " more";
  return s;
}

json case_to_json(const Case& c) {
  json j;
  j["family"] = c.family;
  j["seed"] = c.seed;
  j["dims"] = json::object();
  for (const auto& [k, v] : c.dims) j["dims"][k] = v;
  j["layouts"] = json::object();
  for (const auto& [k, v] : c.layouts)
    j["layouts"][k] = {{"transposed", v.transposed}, {"ld_pad", v.ld_pad}, {"offset", v.offset}};
  j["probe_row"] = c.probe_row;
  j["mode"] = c.mode;
  j["ablations"] = c.ablations;
  j["params"] = json::object();
  for (const auto& [k, v] : c.params) j["params"][k] = jr::finite_or_text(v);
  j["patches"] = json::array();
  for (const auto& p : c.patches) {
    json pj = {{"operand", p.operand}, {"index", p.index}, {"bits", jr::hex_bits(p.bits, 4)}};
    if (p.dtype != DType::f32) pj["dtype"] = dtype_name(p.dtype);
    j["patches"].push_back(std::move(pj));
  }
  return j;
}

Case case_from_json(const json& j, const std::string& where) {
  jr::require_object(j, where);
  Case c;
  c.family = jr::as_string(jr::member(j, where, "family"), where + ".family");
  c.seed = jr::as_uint(jr::member(j, where, "seed"), where + ".seed");
  const json& dims = jr::member(j, where, "dims");
  jr::require_object(dims, where + ".dims");
  for (const auto& [k, v] : dims.items()) c.dims[k] = jr::as_int(v, where + ".dims." + k);
  if (const json* layouts = jr::optional_member(j, where, "layouts")) {
    jr::require_object(*layouts, where + ".layouts");
    for (const auto& [k, v] : layouts->items()) {
      const std::string at = where + ".layouts." + k;
      Layout l;
      l.transposed = jr::as_bool(jr::member(v, at, "transposed"), at + ".transposed");
      l.ld_pad = jr::as_int(jr::member(v, at, "ld_pad"), at + ".ld_pad");
      l.offset = jr::as_int(jr::member(v, at, "offset"), at + ".offset");
      if (l.ld_pad < 0 || l.ld_pad > Layout::kMaxPadOrOffset) throw InputError(at + ".ld_pad: must lie in [0, 2^20]");
      if (l.offset < 0 || l.offset > Layout::kMaxPadOrOffset) throw InputError(at + ".offset: must lie in [0, 2^20]");
      c.layouts[k] = l;
    }
  }
  if (const json* p = jr::optional_member(j, where, "probe_row")) c.probe_row = jr::as_int(*p, where + ".probe_row");
  if (const json* m = jr::optional_member(j, where, "mode")) c.mode = jr::as_string(*m, where + ".mode");
  if (const json* a = jr::optional_member(j, where, "ablations")) {
    jr::require_array(*a, where + ".ablations");
    for (std::size_t i = 0; i < a->size(); ++i)
      c.ablations.push_back(jr::as_string((*a)[i], where + ".ablations[" + std::to_string(i) + "]"));
  }
  if (const json* params = jr::optional_member(j, where, "params")) {
    jr::require_object(*params, where + ".params");
    for (const auto& [k, v] : params->items()) c.params[k] = jr::as_double(v, where + ".params." + k);
  }
  if (const json* patches = jr::optional_member(j, where, "patches")) {
    jr::require_array(*patches, where + ".patches");
    for (std::size_t i = 0; i < patches->size(); ++i) {
      const std::string at = where + ".patches[" + std::to_string(i) + "]";
      const json& pj = (*patches)[i];
      Patch p;
      p.operand = jr::as_string(jr::member(pj, at, "operand"), at + ".operand");
      p.index = jr::as_int(jr::member(pj, at, "index"), at + ".index");
      p.bits = jr::as_hex_bits(jr::member(pj, at, "bits"), at + ".bits");
      if (const json* dtype = jr::optional_member(pj, at, "dtype"))
        p.dtype = parse_dtype_field(jr::as_string(*dtype, at + ".dtype"), at + ".dtype");
      if (dtype_size(p.dtype) < 8 && p.bits >> (8 * dtype_size(p.dtype)) != 0)
        throw InputError(at + ".bits: " + jr::hex_bits(p.bits, 4) + " is wider than " +
                         std::string(dtype_name(p.dtype)));
      c.patches.push_back(p);
    }
  }
  return c;
}

}  // namespace parity
