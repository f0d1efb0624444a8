#include <parity/properties/gate_figures.hpp>

#include <cstdlib>
#include <system_error>

#include <parity/core/error.hpp>
#include <parity/core/input_file.hpp>
#include <parity/core/json_read.hpp>

#ifndef PARITY_FIGURES_SOURCE
#error "the build defines PARITY_FIGURES_SOURCE (properties/CMakeLists.txt)"
#endif

namespace parity::properties {
namespace {

namespace jr = json_read;
using nlohmann::json;

std::int64_t positive(const json& j, const std::string& where) {
  const std::int64_t v = jr::as_int(j, where);
  if (v < 1) throw InputError(where + ": must be >= 1 (got " + std::to_string(v) + ")");
  return v;
}

const json& shapes_of(const json& section, const std::string& where) {
  const json& shapes = jr::member(section, where, "shapes");
  jr::require_array(shapes, where + ".shapes");
  if (shapes.empty()) throw InputError(where + ".shapes: no shape");
  return shapes;
}

json reference_of(const json& shape, const std::string& where) {
  const json* r = jr::optional_member(shape, where, "reference");
  if (!r) return json::object();
  jr::require_object(*r, where + ".reference");
  return *r;
}

GateFigures parse(const json& j) {
  GateFigures f;
  if (jr::as_string(jr::member(j, "", "schema"), "schema") != "parity.reference-figures/1")
    throw InputError("schema: expected parity.reference-figures/1");
  const json& lora = jr::member(j, "", "lora_gate");
  f.lora.rank = positive(jr::member(lora, "lora_gate", "rank"), "lora_gate.rank");
  f.lora.alpha = jr::as_double(jr::member(lora, "lora_gate", "alpha"), "lora_gate.alpha");
  const json& lora_shapes = shapes_of(lora, "lora_gate");
  for (std::size_t i = 0; i < lora_shapes.size(); ++i) {
    const std::string at = "lora_gate.shapes[" + std::to_string(i) + "]";
    const json& s = lora_shapes[i];
    f.lora.shapes.push_back({positive(jr::member(s, at, "N"), at + ".N"), positive(jr::member(s, at, "K"), at + ".K"),
                             positive(jr::member(s, at, "T"), at + ".T"), reference_of(s, at)});
  }
  const json& transition = jr::member(j, "", "transition");
  f.transition.noise_level =
      jr::as_double(jr::member(transition, "transition", "noise_level"), "transition.noise_level");
  const json& transition_shapes = shapes_of(transition, "transition");
  for (std::size_t i = 0; i < transition_shapes.size(); ++i) {
    const std::string at = "transition.shapes[" + std::to_string(i) + "]";
    const json& s = transition_shapes[i];
    f.transition.shapes.push_back({positive(jr::member(s, at, "B"), at + ".B"),
                                   positive(jr::member(s, at, "tokens"), at + ".tokens"),
                                   positive(jr::member(s, at, "channels"), at + ".channels"), reference_of(s, at)});
  }
  const json& model = jr::member(j, "", "model");
  const json& tokens = jr::member(model, "model", "tokens");
  jr::require_array(tokens, "model.tokens");
  if (tokens.empty()) throw InputError("model.tokens: no token count");
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string at = "model.tokens[" + std::to_string(i) + "]";
    f.model.tokens.push_back(
        {positive(jr::member(tokens[i], at, "tokens"), at + ".tokens"), reference_of(tokens[i], at)});
  }
  return f;
}

}  // namespace

std::filesystem::path gate_figures_path() {
  if (const char* env = std::getenv("PARITY_FIGURES"); env && *env) return env;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "parity" / "reference" / "figures.json";
    if (std::filesystem::is_regular_file(installed, ec)) return installed;
  }
  return PARITY_FIGURES_SOURCE;
}

GateFigures parse_gate_figures(const json& j, const std::string& path) {
  try {
    GateFigures f = parse(j);
    f.path = path;
    return f;
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

const GateFigures& gate_figures() {
  static const GateFigures figures = [] {
    const std::string path = gate_figures_path().string();
    const std::string text = read_input_file(path);
    json j;
    try {
      j = json::parse(text);
    } catch (const json::parse_error& e) {
      throw InputError(path + ": not JSON (" + e.what() + ")");
    }
    return parse_gate_figures(j, path);
  }();
  return figures;
}

void figure_error(const std::string& field, const std::string& what) {
  throw InputError(gate_figures().path + ": " + field + ": " + what);
}

}  // namespace parity::properties
