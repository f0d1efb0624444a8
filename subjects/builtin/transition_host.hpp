#pragma once
// The host twin of the transition kernel: the arithmetic of transition_arith.cuh, in its
// documented orders, on the CPU. `Policy` (CUTLASS style) lets the mismatch probes build real
// alternative implementations; StandardStep is the kernel's own.
#include <memory>

#include <parity/subjects/builtin/transition_arith.cuh>
#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::builtin {

// float(sin(a pi / 2)) for the cps step, as the Python reference computes it (math.sin in
// double, then a float32 multiply). Computed once per call on the host for every backend.
float cps_sin_factor(double noise_level);

// How a row's terms are reduced into its log-prob.
enum class LogpReduction { row_mean, row_sum, batch_mean };

struct StandardStep {
  static transition::Row row(const TransitionInputs& in, std::int64_t b);
  // Lanes of the fixed reduction tree for a batch of B rows.
  static int lanes(std::int64_t /*B*/) { return transition::kLanes; }
  static constexpr LogpReduction reduction = LogpReduction::row_mean;
};

template <class Policy>
class TransitionHostTwin : public TransitionSubject {
 public:
  TransitionOutputs sample(const TransitionInputs& in) override;
  Tensor score(const TransitionInputs& in, const Tensor& prev) override;
  // The kernel's fixed 256-lane tree and parity's own log (0.5 ulp). The probes inherit it:
  // a probe that breaks its promise is exactly what the properties must catch.
  TransitionAccuracyContract accuracy_contract() const override {
    return {TransitionAccuracyContract::SumOrder::fixed_256_lane_tree, 0.5};
  }

 private:
  // Fills logp ([B] f32) from the per-element terms, [B][n] row-major.
  static void reduce(const std::vector<float>& terms, std::int64_t B, std::int64_t n, Tensor& logp);
};

std::unique_ptr<TransitionSubject> make_transition_host_twin();

}  // namespace parity::subjects::builtin

#include <parity/subjects/builtin/transition_host_impl.hpp>
