// oracle_agreement: the fast accurate LoRA oracle (oracles/lora_fast.hpp) against the
// 133-bit one on sampled elements: they must agree within the sum of their own stated
// errors (each about an ulp of the value), which is what lets the accuracy checks trust it.
#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/lora_properties.hpp>
#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity::properties::lora {
namespace {

constexpr int kSamplesPerOutput = 8;
constexpr std::uint32_t kSampleStream = 99;

}  // namespace

Verdict check_oracle_agreement(const Case& c, LoraSubject*) {
  const LoraProblem p = materialise(c);
  const OracleInputs in(p);
  const oracles::LoraFastOracle fast(in.operands);
  const oracles::LoraMpOracle exact(in.operands);
  const auto& op = in.operands;
  struct Output {
    const char* name;
    std::int64_t rows, cols;
    oracles::Estimate<double> (*fast)(const oracles::LoraFastOracle&, std::int64_t, std::int64_t);
    oracles::Estimate<double> (*exact)(const oracles::LoraMpOracle&, std::int64_t, std::int64_t);
  };
  const Output outputs[] = {
      {"y", op.T, op.N, [](const auto& o, auto i, auto j) { return o.y(i, j); },
       [](const auto& o, auto i, auto j) { return o.y(i, j); }},
      {"dx", op.T, op.K, [](const auto& o, auto i, auto j) { return o.dx(i, j); },
       [](const auto& o, auto i, auto j) { return o.dx(i, j); }},
      {"dA", op.r, op.K, [](const auto& o, auto i, auto j) { return o.dA(i, j); },
       [](const auto& o, auto i, auto j) { return o.dA(i, j); }},
      {"dB", op.N, op.r, [](const auto& o, auto i, auto j) { return o.dB(i, j); },
       [](const auto& o, auto i, auto j) { return o.dB(i, j); }},
  };
  double worst = 0.0;
  std::int64_t sample = 0;
  for (const Output& out : outputs)
    for (int s = 0; s < kSamplesPerOutput; ++s) {
      const std::int64_t i = static_cast<std::int64_t>(philox_bits(c.seed, kSampleStream, sample++) %
                                                       static_cast<std::uint64_t>(out.rows * out.cols));
      const auto f = out.fast(fast, i / out.cols, i % out.cols);
      const auto e = out.exact(exact, i / out.cols, i % out.cols);
      if (!std::isfinite(e.value) || !std::isfinite(f.value)) {
        const bool same_class = (std::isnan(e.value) && std::isnan(f.value)) || e.value == f.value;
        if (!same_class)
          return Verdict::fail("oracle_agreement", std::string(out.name) + index_text(i, {out.rows, out.cols}) +
                                                       ": fast " + number_text(f.value) + " vs multiprecision " +
                                                       number_text(e.value));
        continue;
      }
      const double err = std::fabs(f.value - e.value);
      const double allowed = f.oracle_err + e.oracle_err;
      worst = std::max(worst, allowed > 0 ? err / allowed : err > 0 ? INFINITY : 0.0);
      if (!(err <= allowed)) {
        Verdict v =
            Verdict::fail("oracle_agreement", std::string(out.name) + index_text(i, {out.rows, out.cols}) + ": fast " +
                                                  number_text(f.value) + " vs multiprecision " + number_text(e.value) +
                                                  ", |diff| " + number_text(err) + " > the oracles' stated errors " +
                                                  number_text(f.oracle_err) + " + " + number_text(e.oracle_err));
        v.metrics["max_diff_over_stated_errors"] = err / allowed;
        return v;
      }
    }
  Verdict v = Verdict::pass("oracle_agreement", std::to_string(sample) + " sampled elements agree");
  v.metrics["max_diff_over_stated_errors"] = worst;
  return v;
}

}  // namespace parity::properties::lora
