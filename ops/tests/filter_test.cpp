// The filter (filtered.hpp) against the evaluations it stands in front of, for every shipped op:
// per element, the double value within d of MPFR's, within 2d of Bounded's, and lo no larger than
// Bounded's bound, so that a pass it decides is one Bounded would give. And forward_accuracy
// through it: parity's host twin passes large LoRA, linear and attention cases by the filter
// alone, and no accuracy probe ever passes by it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <rapidcheck.h>

#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {
namespace {

constexpr int kCasesPerOp = 12;

std::unique_ptr<OpSubject> make(const std::string& op, const std::string& subject) {
  return testing::make_subject(find_op_family(op), subject);
}

TEST(Filter, EveryOpsBoundsHoldAgainstBoundedAndMpfr) {
  for (const gen::Family* family : op_families()) {
    const OpDef& op = dynamic_cast<const OpFamily&>(*family).def();
    const Arithmetic arithmetic = make(family->name(), "parity-host")->arithmetic();
    const rc::Gen<Case> cases = op_case(op);
    std::int64_t decidable = 0, elements = 0;
    for (int k = 0; k < kCasesPerOp; ++k) {
      const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 7), k * 100 / kCasesPerOp).value();
      OpProblem p = materialise(op.decl, c);
      // MPFR on the first rows only, as oracle_agreement does.
      std::int64_t per_row = 1;
      for (const auto& t : op.decl.inputs)
        if (op.decl.has_rows(t) && p.call.has_input(t.name))
          per_row = std::max<std::int64_t>(per_row, std::ssize(p.values.inputs.at(t.name)) / rows(op.decl, p));
      p = row_slice(op.decl, p, 0, std::clamp<std::int64_t>(kOracleCheckElements / per_row, 1, rows(op.decl, p)));
      const FilteredOutputs f = op.filtered(p.values, arithmetic);
      const BoundedOutputs b = op.bounded(p.values, arithmetic);
      const OutputValues exact = op.multiprecision(p.values);
      for (const auto& [name, filtered] : f) {
        const auto &bv = b.value.at(name), &be = b.err.at(name), &m = exact.at(name);
        for (std::size_t i = 0; i < filtered.size(); ++i) {
          const double value = filtered[i].value(), dev = filtered[i].dev(), lo = filtered[i].lo();
          ++elements;
          EXPECT_GE(lo, 0.0);
          if (!(be[i] >= lo))  // NaN-safe: a NaN bound fails too
            ADD_FAILURE() << family->name() << " " << name << "[" << i << "] of " << c.summary() << ": lo " << lo
                          << " above Bounded's " << be[i];
          if (!std::isfinite(dev) || !std::isfinite(value)) continue;
          ++decidable;
          EXPECT_LE(std::fabs(value - m[i]), dev + 0x1p-52 * std::fabs(m[i]))
              << family->name() << " " << name << "[" << i << "] of " << c.summary() << ": " << value << " vs MPFR "
              << m[i];
          EXPECT_LE(std::fabs(value - bv[i]), 2 * dev) << family->name() << " " << name << "[" << i << "] of "
                                                       << c.summary() << ": " << value << " vs Bounded's " << bv[i];
        }
      }
    }
    // Every element gets a finite d but where a non-finite input reaches it through a sum or
    // product (an Inf patch in a norm's row leaves the whole row's d infinite), a divisor or a
    // square root's, rsqrt's or log's operand may be 0 or negative, or a quotient or exp may
    // overflow double: most elements of every op, nearly all of the ops built of sums and products
    // alone.
    EXPECT_GT(decidable, elements / 2) << family->name();
    if (family->name() == "lora_forward" || family->name() == "lora_backward" || family->name() == "linear") {
      EXPECT_GT(decidable, elements * 9 / 10) << family->name();
    }
    std::printf("%s: %lld of %lld elements with a finite d\n", family->name().c_str(),
                static_cast<long long>(decidable), static_cast<long long>(elements));
  }
}

// A case of `op` drawn from `seed` at these extents and parameters, every input contiguous.
Case sized(const std::string& op, std::map<std::string, std::int64_t> dims, std::map<std::string, double> params,
           std::uint64_t seed) {
  return testing::case_of(op, seed, std::move(dims), std::move(params));
}

TEST(Filter, DecidesParityHostOnLargeCasesAndNeverPassesAProbe) {
  struct Trial {
    std::string op;
    std::map<std::string, std::int64_t> dims;
    std::map<std::string, double> params;
    std::vector<std::string> probes;
  };
  // Past kFilterWork (lora_forward's work 2 T N K + ... = 8M, lora_backward's 3 T N K + ... = 12M, linear's T N K
  // = 2.5M): K = 300 is no multiple of a tile (probe-k-tail), linear has its bias (probe-bf16-before-bias), the LoRA
  // ops' scale is 2 (probe-scale-dropped) and their rank 40 past the rank path's 32 (probe-rank-path-drops-b-column).
  // And linear at K = 8192, a few rows: lo's X from the parts' |partial sums| (oracles/unordered_gemm.hpp: its
  // kernel's lanes) is furthest below X = sum |x||W| there (about sqrt(q K) of K terms' size, q parts), and still
  // decides.
  const std::vector<Trial> trials = {
      {"linear",
       {{"T", 16}, {"N", 256}, {"K", 8192}},
       {{"bias", 1.0}, {"dtype.act", dtype_code(DType::f32)}, {"scale.x", 1e-3}},
       {}},
      {"lora_forward",
       {{"T", 32}, {"N", 256}, {"K", 300}, {"r", 40}},
       {{"scale", 2.0}, {"dtype.act", dtype_code(DType::bf16)}, {"dtype.adapter", dtype_code(DType::f32)}},
       {"probe-scale-dropped", "probe-rank-path-drops-b-column", "probe-truncating-bf16", "probe-bf16-accumulation"}},
      {"lora_backward",
       {{"T", 32}, {"N", 256}, {"K", 300}, {"r", 40}},
       {{"scale", 2.0}, {"dtype.act", dtype_code(DType::bf16)}, {"dtype.adapter", dtype_code(DType::f32)}},
       {"probe-scale-dropped", "probe-rank-path-drops-b-column", "probe-truncating-bf16", "probe-bf16-accumulation"}},
      {"linear",
       {{"T", 32}, {"N", 256}, {"K", 300}},
       {{"bias", 1.0}, {"dtype.act", dtype_code(DType::f32)}, {"scale.x", 1e-3}},
       {"probe-k-tail", "probe-bf16-before-bias"}},
      // Attention past kFilterWork (B H S S D = 8M), its scores a product per block of query rows, its
      // p v one too without the causal mask: logits of scale 10 overflow exp without the maximum
      // subtracted; S = 256 >= 128 with B H = 2 < 8 splits the keys (probe-split-no-rescale).
      {"sdpa",
       {{"B", 1}, {"Hkv", 2}, {"G", 1}, {"S", 256}, {"D", 64}},
       {{"causal", 0},
        {"layout", 0},
        {"scale", 0.125},
        {"dtype.act", dtype_code(DType::f32)},
        {"scale.q", 10.0},
        {"scale.k", 10.0}},
       {"probe-no-max", "probe-scale-after-softmax", "probe-split-no-rescale"}},
      {"sdpa",
       {{"B", 1}, {"Hkv", 2}, {"G", 1}, {"S", 256}, {"D", 64}},
       {{"causal", 1},
        {"layout", 1},
        {"scale", 0.125},
        {"dtype.act", dtype_code(DType::f32)},
        {"scale.q", 1.0},
        {"scale.k", 1.0}},
       {"probe-causal-off-by-one", "probe-scale-after-softmax"}},
  };
  for (const Trial& trial : trials) {
    const OpDef& op = find_op_family(trial.op).def();
    int by_filter = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const Case c = sized(trial.op, trial.dims, trial.params, seed);
      const Verdict v = forward_accuracy(op, c, *make(trial.op, "parity-host"));
      EXPECT_TRUE(v.holds()) << trial.op << " " << c.summary() << ": " << v.detail;
      if (v.metrics.contains("decided_by_filter")) ++by_filter;
      for (const std::string& probe : trial.probes) {
        const Verdict w = forward_accuracy(op, c, *make(trial.op, probe));
        EXPECT_FALSE(w.metrics.contains("decided_by_filter")) << trial.op << " " << probe << ": " << w.detail;
        EXPECT_TRUE(w.fails()) << trial.op << " " << probe << " " << c.summary() << ": " << w.detail;
      }
    }
    EXPECT_GE(by_filter, 5) << sized(trial.op, trial.dims, trial.params, 0).summary() << ": the filter decided "
                            << by_filter << " of 6 passing cases";
  }
}

}  // namespace
}  // namespace parity::ops
