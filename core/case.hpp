#pragma once
// A Case determines every input bit of one check: the seed, the shapes, each operand's
// layout, the batch composition, the runtime mode, scalar parameters and explicit element
// patches. It round-trips through JSON exactly (Case == from_json(to_json(Case))).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <parity/core/dtype.hpp>
#include <parity/core/layout.hpp>

namespace parity {

// Overwrites one logical element of an operand, after the operand has been drawn from the seed,
// with the value whose raw `dtype` bits are `bits`. An op family's patches (and the lora and
// transition families', whose cases are lora_backward's and transition_step's) are in the
// operand's own dtype (a bf16 operand's patch holds bf16 bits), so that any value of any dtype can
// be one.
struct Patch {
  std::string operand;
  std::int64_t index = 0;    // row-major logical index
  std::uint64_t bits = 0;    // raw bits of `dtype`, zero-extended
  DType dtype = DType::f32;  // in JSON "dtype", written only when not f32

  friend bool operator==(const Patch&, const Patch&) = default;
};

struct Case {
  std::string family;                        // "lora", ...
  std::uint64_t seed = 0;                    // Philox key for every drawn operand
  std::map<std::string, std::int64_t> dims;  // e.g. T, N, K, r
  std::map<std::string, Layout> layouts;     // operand -> layout (absent = contiguous)
  std::int64_t probe_row = 0;                // position of the probe row in the batch
  std::string mode = "strict";               // runtime mode (model family)
  std::vector<std::string> ablations;        // boundaries left native, "node:attention" (model)
  std::map<std::string, double> params;      // scalars, e.g. scale
  std::vector<Patch> patches;

  // dims.at(name), throwing InputError "case.dims.<name>: missing" when absent.
  std::int64_t dim(const std::string& name) const;
  Layout layout(const std::string& operand) const;
  double param(const std::string& name, double fallback) const;

  // One line, e.g. "lora K=7 N=5 T=3 r=2 seed=42 probe_row=1 x:transposed patches: dy[4] =
  // 3.38953139e+38 (bits 0x7f7f0000, bf16 max)": each patch (the first four, then how many
  // more) as operand[index] = its value (its bits, their dtype unless float32, and the name of a
  // special value), e.g. "q[0] = inf (bf16 bits 0x7f80)".
  std::string summary() const;

  friend bool operator==(const Case&, const Case&) = default;
};

nlohmann::json case_to_json(const Case& c);
// Throws InputError naming the field ("case.dims.K: expected an integer").
Case case_from_json(const nlohmann::json& j, const std::string& where = "case");

}  // namespace parity
