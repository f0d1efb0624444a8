#pragma once
// The reference figures the gate runs at (docs/reference.md): the shapes and parameters of the
// kernel gate report parity reproduces, and that report's measured figures for each, read from
// docs/reference/figures.json (schema parity.reference-figures/1). The shapes and parameters
// decide what the gate runs; each `reference` object is copied beside the gate's own row, a
// comparison for the reader, never a threshold.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parity::properties {

struct LoraGateFigures {
  struct Shape {
    std::int64_t N = 0, K = 0, T = 0;
    nlohmann::json reference;  // the report's figures at this shape (an object)
  };
  std::int64_t rank = 0;
  double alpha = 0;
  std::vector<Shape> shapes;
};

struct TransitionGateFigures {
  struct Shape {
    std::int64_t B = 0, tokens = 0, channels = 0;
    nlohmann::json reference;
  };
  double noise_level = 0;
  std::vector<Shape> shapes;
};

struct ModelGateFigures {
  struct Tokens {
    std::int64_t tokens = 0;
    nlohmann::json reference;  // {"variants": {name: figures}, "checks": {...}}
  };
  std::vector<Tokens> tokens;
};

struct GateFigures {
  std::string path;  // where they were read, for messages ("<path>: lora_gate.shapes[0].N: ...")
  LoraGateFigures lora;
  TransitionGateFigures transition;
  ModelGateFigures model;
};

// Where the gate's figures are: $PARITY_FIGURES when set and not empty; else the installed
// copy, <prefix>/share/parity/reference/figures.json for a program in <prefix>/bin; else the
// source tree's docs/reference/figures.json (its path compiled in).
std::filesystem::path gate_figures_path();

// Reads figures from JSON. Throws InputError naming `path` and the field for a missing or
// mistyped field, a schema other than parity.reference-figures/1, an empty list of shapes or a
// non-positive extent; whether a shape fits its family's limits is the family gate's check.
GateFigures parse_gate_figures(const nlohmann::json& j, const std::string& path);

// The figures at gate_figures_path(), read and parsed once per process (InputError as above,
// or naming the file when it cannot be read or is not JSON).
const GateFigures& gate_figures();

// An InputError for the figure at `field` of gate_figures(): "<path>: <field>: <what>".
[[noreturn]] void figure_error(const std::string& field, const std::string& what);

}  // namespace parity::properties
