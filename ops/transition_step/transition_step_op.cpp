// The transition_step and transition_score ops as parity ships them: their declarations
// (transition_step_op.hpp) with parity's kernel (the host twins and the CUDA factories,
// transition_step_kernel.cuh), LibTorch's references (transition_step_torch.cpp) and the mismatch
// probes below; and parity's kernel at rows of their own sigma_prev (host_row_step).
#include <string>
#include <utility>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::ops::transition_step {

// Mismatch probes of the transition step: the kernel with one step changed, each wrong in a way
// seen in practice, each of which a property must catch (parity probes transition_step, parity
// probes transition_score). They inherit the kernel's declared arithmetic.
namespace {

// prev = mean + std * eps: the noise forgets its sqrt(-dt) (sde).
struct NoSqrtDt : Standard {
  static arith::Row row(const StepSettings& s, float sigma, float sigma_prev) {
    arith::Row r = standard_row(s, sigma, sigma_prev);
    if (!r.cps) arith::set_noise(r, r.std);
    return r;
  }
};

// dt = sigma - sigma_prev: the step runs the wrong way (and sqrt(-dt) is NaN).
struct DtSignFlipped : Standard {
  static arith::Row row(const StepSettings& s, float sigma, float sigma_prev) {
    if (s.cps) return standard_row(s, sigma, sigma_prev);
    return arith::sde_row(sigma, sigma - sigma_prev, s.sigma_max, static_cast<float>(s.noise_level), s.normaliser);
  }
};

// The log-prob mean is taken over every element of the batch, the batch dimension included.
struct MeanOverBatch : Standard {
  static constexpr LogpReduction reduction = LogpReduction::batch_mean;
};

// The log-prob is the sum over the row instead of its mean.
struct SumInsteadOfMean : Standard {
  static constexpr LogpReduction reduction = LogpReduction::row_sum;
};

// The normaliser -log(std sqrt(-dt)) - log(sqrt(2 pi)) is dropped even when asked for
// (DanceGRPO's slip).
struct NormaliserDropped : Standard {
  static arith::Row row(const StepSettings& s, float sigma, float sigma_prev) {
    arith::Row r = standard_row(s, sigma, sigma_prev);
    r.normaliser = false;
    return r;
  }
};

// A reduction whose tree depends on the batch size: a "small batch" path with 256 lanes for one
// row, 64 lanes otherwise.
struct BatchDependentReduction : Standard {
  static int lanes(std::int64_t B) { return B == 1 ? arith::kLanes : 64; }
};

// The batch size above which TreeReductionAboveRows changes its reduction tree.
constexpr std::int64_t kTreeSwitchRows = 8;

// A tree whose lane count depends on the batch size, like a kernel that picks its reduction from
// the batch: 256 lanes up to kTreeSwitchRows rows, 64 above.
struct TreeReductionAboveRows : Standard {
  static int lanes(std::int64_t B) { return B > kTreeSwitchRows ? 64 : arith::kLanes; }
};

// Scores the step's own mean, not the given prev: the log-prob of a zero residual, whatever prev
// is (finite even where the noise is not).
struct ScoreIgnoresPrev : Standard {
  static float scored_prev(const arith::Row& /*r*/, float /*given*/, float mean) { return mean; }
};

// The probes of both ops (transition_score's are its host twin's with the same step changed).
template <template <class> class Host>
void add_step_probes(const HostProbes<Host>& probes) {
  probes.template add<NoSqrtDt>("probe-no-sqrt-dt", "prev = mean + std * eps, without sqrt(-dt)");
  probes.template add<DtSignFlipped>("probe-dt-sign-flipped", "dt = sigma - sigma_prev");
  probes.template add<MeanOverBatch>("probe-mean-over-batch", "the log-prob mean also runs over the batch dimension");
  probes.template add<SumInsteadOfMean>("probe-sum-not-mean", "the log-prob sums the row instead of averaging it");
  probes.template add<NormaliserDropped>("probe-normaliser-dropped",
                                         "drops -log(std sqrt(-dt)) - log(sqrt(2 pi)) even when asked");
  probes.template add<BatchDependentReduction>("probe-batch-dependent-reduction",
                                               "reduces with 256 lanes for one row, 64 otherwise");
  probes.template add<TreeReductionAboveRows>(
      "probe-tree-reduction-above-8-rows",
      "reduces with 256 lanes up to " + std::to_string(kTreeSwitchRows) + " rows, 64 above");
}

void register_step_subjects() {
#if PARITY_HAVE_TORCH
  register_torch_references("transition_step", Entry::sample);
#endif
  add_step_probes(HostProbes<StepHost>{"transition_step"});
}

void register_score_subjects() {
#if PARITY_HAVE_TORCH
  register_torch_references("transition_score", Entry::score);
#endif
  const HostProbes<ScoreHost> probes{"transition_score"};
  add_step_probes(probes);
  probes.add<ScoreIgnoresPrev>("probe-score-ignores-prev", "scores the sampled mean, ignoring the prev it is given");
}

constexpr const char* kKernel = "parity's deterministic transition kernel";

}  // namespace

OpOutputs host_row_step(const RowStep& s) {
  static const OpDecl decl = TransitionStep::declaration();
  const std::vector<arith::Row> rows = rows_at(s);
  const OpCall call = row_step_call(s);
  kernels::HostCall c(decl, call);
  StepHost<Standard>::step(c, rows);
  return std::move(c).take_outputs();
}

const gen::Family& family() {
  return shipped_op_family<TransitionStep>(
      {.kernel = kKernel,
       .make_host = &make_op_subject<StepHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_reference(TorchFormula::flow_grpo, Entry::sample, false)),
       .register_probes = &register_step_subjects});
}

const gen::Family& score_family() {
  return shipped_op_family<TransitionScore>(
      {.kernel = kKernel,
       .make_host = &make_op_subject<ScoreHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_score_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_reference(TorchFormula::flow_grpo, Entry::score, false)),
       .register_probes = &register_score_subjects});
}

}  // namespace parity::ops::transition_step
