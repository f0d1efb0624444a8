#include "subjects/probes/lora_probes.hpp"

#include "subjects/rlkernels/lora_host.hpp"

namespace parity::subjects::probes {
namespace {

using rlkernels::LoraHostTwin;
using rlkernels::StandardArithmetic;

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

template <class Arith>
std::unique_ptr<LoraSubject> make_twin() {
  return std::make_unique<LoraHostTwin<Arith>>();
}

std::unique_ptr<LoraSubject> make_base_gradient() { return std::make_unique<BaseWeightGradient>(); }

}  // namespace

void register_lora_probes() {
  const auto probe = [](std::string name, std::string description, std::unique_ptr<LoraSubject> (*make)()) {
    register_subject(LoraSubjectInfo{.name = std::move(name), .backend = "host", .kind = SubjectKind::probe,
                                     .description = std::move(description), .make = make});
  };
  probe("probe-scale-dropped", "drops the LoRA scale s = alpha / r", &make_twin<ScaleDropped>);
  probe("probe-split-k-by-rows",
        "splits the base reduction over K in two above " + std::to_string(kSplitKRowThreshold) + " rows",
        &make_twin<SplitKByRows>);
  probe("probe-split-k-by-depth",
        "splits the base reduction over K in two for more than one row once K >= " + std::to_string(kSplitKMinDepth),
        &make_twin<SplitKByDepth>);
  probe("probe-bf16-accumulation", "accumulates every reduction in bf16", &make_twin<Bf16Accumulation>);
  probe("probe-truncating-bf16", "converts float32 to bf16 by truncation", &make_twin<TruncatingConversion>);
  probe("probe-base-gradient", "gives the frozen base weight W a gradient", &make_base_gradient);
}

}  // namespace parity::subjects::probes
