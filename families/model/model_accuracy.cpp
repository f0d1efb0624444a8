// Accuracy of the routines against the float64 model, and the tolerance it must meet.
//
// Routines and LibTorch evaluate the same float32 model; they differ only in reduction orders and
// in their exp. How far either lands from the exact result depends on the conditioning of this
// model on these inputs, which no closed-form bound captures through softmax, RMSNorm and 2+
// residual blocks. So the tolerance is derived from LibTorch's own float32 error on the same
// input, measured against the float64 run: e_routines <= kOrderFactor * e_provider + kFloor * u,
// u = 2^-24.
//   kOrderFactor = 8: a sequential chain of length n has a worst-case error of gamma_n, a
//     blocked or pairwise one of about gamma_{log2 n + b}; for the reduction lengths here
//     (width 64, F 128, up to 4253 keys) the statistical error ratio sqrt(n)/sqrt(log2 n + b)
//     stays below 8 (sqrt(4253 / 64) = 8.2 with 64-wide BLAS blocks).
//   kFloor = 64: where LibTorch's error is near zero (an exact output) the routines still round
//     a few dozen times along the path.
#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/families/model/model_properties.hpp>

namespace parity::properties::model {
namespace {

constexpr double kOrderFactor = 8.0;
constexpr double kFloor = 64.0;
constexpr double kUnitRoundoff = 5.9604644775390625e-08;  // 2^-24

}  // namespace

std::vector<OutputAccuracy> accuracy_against(const parity::model::ModelOutputs& routines,
                                             const parity::model::ModelOutputs& provider,
                                             const parity::model::ModelOutputs& f64) {
  std::vector<OutputAccuracy> out;
  auto add = [&](const char* name, const Tensor& r, const Tensor& p, const Tensor& ref) {
    OutputAccuracy a;
    a.output = name;
    a.rel_diff_vs_provider = compare_values(r, p).normwise_rel;
    a.routines_rel_err = compare_values(r, ref).normwise_rel;
    a.provider_rel_err = compare_values(p, ref).normwise_rel;
    a.tolerance = kOrderFactor * a.provider_rel_err + kFloor * kUnitRoundoff;
    out.push_back(a);
  };
  add("video", routines.video, provider.video, f64.video);
  add("audio", routines.audio, provider.audio, f64.audio);
  add("input_grad", routines.input_grad, provider.input_grad, f64.input_grad);
  add("prev", routines.prev, provider.prev, f64.prev);
  add("logp", routines.logp, provider.logp, f64.logp);
  return out;
}

}  // namespace parity::properties::model
