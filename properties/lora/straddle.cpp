#include <parity/properties/lora/straddle.hpp>

#include <algorithm>
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/oracles/lora.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity::properties::lora {
namespace {

constexpr std::uint32_t kColumnStream = 77;

// The bf16 rounding midpoint nearest to v: v's float32 lies between the midpoints above and
// below its truncated bf16 value (bf16 values hi - 1 and hi, hi + 1 around it).
double nearest_bf16_midpoint(double v) {
  const auto hi = static_cast<std::uint16_t>(float_bits(static_cast<float>(v)) >> 16);
  const double above = bits_float(bf16_straddle_bits(hi, 0));
  if ((hi & 0x7FFFu) == 0) return above;  // +-0: no bf16 value of smaller magnitude
  const double below = bits_float(bf16_straddle_bits(static_cast<std::uint16_t>(hi - 1), 0));
  return std::fabs(v - above) <= std::fabs(v - below) ? above : below;
}

}  // namespace

namespace {

// The probe row alone as a one-row case: its content is drawn from its own stream wherever it
// sits, so only its patches move (to row 0); those on other rows of x and on dy go.
Case probe_row_case(const Case& c) {
  Case one = c;
  const std::int64_t K = c.dim("K"), t = c.probe_row;
  one.dims["T"] = 1;
  one.probe_row = 0;
  one.params.erase("other_rows");
  one.params.erase("checked_outputs");
  one.patches.clear();
  for (Patch p : c.patches) {
    if (p.operand == "dy") continue;
    if (p.operand == "x") {
      if (p.index / K != t) continue;
      p.index -= t * K;
    }
    one.patches.push_back(p);
  }
  return one;
}

}  // namespace

std::vector<Patch> straddle_output_patches(const Case& c, int count) {
  const LoraProblem p = materialise(probe_row_case(c));
  const OracleInputs in(p);
  const auto& op = in.operands;
  if (op.scale == 0.0 || !std::isfinite(op.scale)) return {};
  const oracles::LoraOracle<double> oracle(in.operands);
  const std::int64_t t = 0;  // the probe row, alone
  // h[t, j] in double, and the j that moves y most per unit of B.
  std::int64_t best_j = -1;
  double best_h = 0.0;
  for (std::int64_t j = 0; j < op.r; ++j) {
    double h = 0.0;
    for (std::int64_t k = 0; k < op.K; ++k) h += in.x[t * op.K + k] * in.A[j * op.K + k];
    if (std::isfinite(h) && std::fabs(h) > std::fabs(best_h)) {
      best_h = h;
      best_j = j;
    }
  }
  if (best_j < 0) return {};
  std::vector<Patch> patches;
  std::vector<std::int64_t> used;
  for (int i = 0; i < count && static_cast<std::int64_t>(used.size()) < op.N; ++i) {
    const auto n = static_cast<std::int64_t>(philox_bits(c.seed, kColumnStream, static_cast<std::uint64_t>(i)) %
                                             static_cast<std::uint64_t>(op.N));
    if (std::find(used.begin(), used.end(), n) != used.end()) continue;
    used.push_back(n);
    const double y = oracle.y(t, n).value;
    const double b_old = in.B[n * op.r + best_j];
    const double rest = y - op.scale * best_h * b_old;  // y without this B's term
    const double b_new = (nearest_bf16_midpoint(y) - rest) / (op.scale * best_h);
    const float b = static_cast<float>(b_new);
    if (!std::isfinite(y) || !std::isfinite(b)) continue;
    patches.push_back({"B", n * op.r + best_j, float_bits(b)});
  }
  return patches;
}

}  // namespace parity::properties::lora
