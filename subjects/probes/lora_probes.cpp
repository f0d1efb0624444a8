#include <parity/subjects/probes/lora_probes.hpp>

#include <parity/subjects/builtin/lora_host.hpp>

namespace parity::subjects::probes {
namespace {

using builtin::LoraHostTwin;
using builtin::StandardArithmetic;

// Forgets the LoRA scale s = alpha / r (multiplies the low-rank path by 1).
struct ScaleDropped : StandardArithmetic {
  static float effective_scale(float) { return 1.0f; }
};

// Splits the base reduction over K in two halves, summed at the end, above a row count.
struct SplitKByRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows > kSplitKRowThreshold; }
};

// Splits the base reduction over K in two halves for more than one row, once K is deep enough.
struct SplitKByDepth : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t K) { return rows > 1 && K >= kSplitKMinDepth; }
};

// Splits the base reduction over K in two halves from kSplitKFromRows rows on.
struct SplitKFromRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows >= kSplitKFromRows; }
};

// One plan for 2..kPlanSwitchRows rows, the split-K above them and for a single row: the
// single-row path agrees with large batches, so only batches on both sides of the switch differ.
struct PlanSwitchAtRows : StandardArithmetic {
  static bool split_base_reduction(std::int64_t rows, std::int64_t) { return rows == 1 || rows > kPlanSwitchRows; }
};

// Accumulates in bf16: every partial sum is rounded to bf16.
struct Bf16Accumulation : StandardArithmetic {
  static float mac(float acc, float a, float b) { return round_through_bf16(fmaf(a, b, acc)); }
};

// Converts the float32 results to bf16 by truncation instead of rounding to nearest even.
struct TruncatingConversion : StandardArithmetic {
  static std::uint16_t round_output(float v) { return bf16_from_float_truncate(v); }
};

// The kernel's arithmetic, but the frozen base weight receives a gradient dW = dy^T x.
class BaseWeightGradient : public LoraHostTwin<StandardArithmetic> {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = LoraHostTwin<StandardArithmetic>::backward(in, dy);
    const std::int64_t T = in.x.dim(0), N = in.W.dim(0), K = in.W.dim(1);
    Tensor dW = Tensor::zeros(DType::f32, {N, K});
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < T; ++t)
          acc = fmaf(static_cast<float>(dy.value_at(t * N + n)), static_cast<float>(in.x.value_at(t * K + k)), acc);
        dW.set_value(n * K + k, acc);
      }
    g.dW = std::move(dW);
    return g;
  }
};

// The kernel's arithmetic, but a backward that "optimises" B = 0: it returns dA = dB = 0 without
// computing them (dA is 0 there, but dB = s dy^T h is not) and dx from the base path alone.
class SkipsAdapterBackwardAtZeroB : public LoraHostTwin<StandardArithmetic> {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = LoraHostTwin<StandardArithmetic>::backward(in, dy);
    for (std::int64_t i = 0; i < in.B.numel(); ++i)
      if (in.B.value_at(i) != 0.0) return g;
    g.dA = Tensor::zeros(g.dA.dtype(), g.dA.shape());
    g.dB = Tensor::zeros(g.dB.dtype(), g.dB.shape());
    return g;
  }
};

// Above rank kRankPathAbove, a path that leaves out the last column of B (the kernel's rank loop
// stops one short), forward and backward.
class RankPathDropsLastColumn : public LoraHostTwin<StandardArithmetic> {
 public:
  Tensor forward(const LoraInputs& in) override { return LoraHostTwin<StandardArithmetic>::forward(effective(in)); }
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    return LoraHostTwin<StandardArithmetic>::backward(effective(in), dy);
  }

 private:
  static LoraInputs effective(const LoraInputs& in) {
    const std::int64_t N = in.B.dim(0), r = in.B.dim(1);
    if (r <= kRankPathAbove) return in;
    LoraInputs out = in;
    for (std::int64_t n = 0; n < N; ++n) out.B.set_value(n * r + r - 1, 0.0);
    return out;
  }
};

template <class Arith>
std::unique_ptr<LoraSubject> make_twin() {
  return std::make_unique<LoraHostTwin<Arith>>();
}

std::unique_ptr<LoraSubject> make_base_gradient() { return std::make_unique<BaseWeightGradient>(); }
std::unique_ptr<LoraSubject> make_skips_adapter_backward() { return std::make_unique<SkipsAdapterBackwardAtZeroB>(); }
std::unique_ptr<LoraSubject> make_rank_path() { return std::make_unique<RankPathDropsLastColumn>(); }

LoraSubjectInfo probe(std::string name, std::string description, std::unique_ptr<LoraSubject> (*make)()) {
  return {.name = std::move(name),
          .backend = "host",
          .kind = SubjectKind::probe,
          .description = std::move(description),
          .make = make};
}

}  // namespace

std::vector<LoraSubjectInfo> lora_op_probes() {
  return {probe("probe-scale-dropped", "drops the LoRA scale s = alpha / r", &make_twin<ScaleDropped>),
          probe("probe-split-k-by-rows",
                "splits the base reduction over K in two above " + std::to_string(kSplitKRowThreshold) + " rows",
                &make_twin<SplitKByRows>),
          probe("probe-split-k-by-depth",
                "splits the base reduction over K in two for more than one row once K >= " +
                    std::to_string(kSplitKMinDepth),
                &make_twin<SplitKByDepth>),
          probe("probe-split-k-from-128-rows",
                "splits the base reduction over K in two from " + std::to_string(kSplitKFromRows) + " rows on",
                &make_twin<SplitKFromRows>),
          probe("probe-rank-path-drops-b-column",
                "above rank " + std::to_string(kRankPathAbove) + " leaves out the last column of B", &make_rank_path),
          probe("probe-plan-switch-at-64-rows",
                "one plan for 2.." + std::to_string(kPlanSwitchRows) + " rows, a split-K above them and for one row",
                &make_twin<PlanSwitchAtRows>),
          probe("probe-bf16-accumulation", "accumulates every reduction in bf16", &make_twin<Bf16Accumulation>),
          probe("probe-truncating-bf16", "converts float32 to bf16 by truncation", &make_twin<TruncatingConversion>)};
}

void register_lora_probes() {
  register_subject(probe("probe-base-gradient", "gives the frozen base weight W a gradient", &make_base_gradient));
  register_subject(probe("probe-skips-adapter-backward-at-zero-B",
                         "returns dA = dB = 0 without computing them when B is all zero",
                         &make_skips_adapter_backward));
}

}  // namespace parity::subjects::probes
