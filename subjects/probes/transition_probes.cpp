#include <parity/subjects/probes/transition_probes.hpp>

#include <parity/subjects/builtin/transition_host.hpp>

namespace parity::subjects::probes {
namespace {

using builtin::LogpReduction;
using builtin::StandardStep;
using builtin::TransitionHostTwin;
namespace tr = builtin::transition;

// prev = mean + std * eps: the noise forgets its sqrt(-dt) (sde).
struct NoSqrtDt : StandardStep {
  static tr::Row row(const TransitionInputs& in, std::int64_t b) {
    tr::Row r = StandardStep::row(in, b);
    if (!r.cps) tr::set_noise(r, r.std);
    return r;
  }
};

// dt = sigma - sigma_prev: the step runs the wrong way (and sqrt(-dt) is NaN).
struct DtSignFlipped : StandardStep {
  static tr::Row row(const TransitionInputs& in, std::int64_t b) {
    const auto i = static_cast<std::size_t>(b);
    if (in.type == StepType::cps) return StandardStep::row(in, b);
    return tr::sde_row(in.sigma[i], in.sigma[i] - in.sigma_prev[i], in.sigma_max, static_cast<float>(in.noise_level),
                       in.normaliser);
  }
};

// The log-prob mean is taken over every element of the batch, the batch dimension included.
struct MeanOverBatch : StandardStep {
  static constexpr LogpReduction reduction = LogpReduction::batch_mean;
};

// The log-prob is the sum over the row instead of its mean.
struct SumInsteadOfMean : StandardStep {
  static constexpr LogpReduction reduction = LogpReduction::row_sum;
};

// The normaliser -log(std sqrt(-dt)) - log(sqrt(2 pi)) is dropped even when asked for
// (DanceGRPO's slip).
struct NormaliserDropped : StandardStep {
  static tr::Row row(const TransitionInputs& in, std::int64_t b) {
    tr::Row r = StandardStep::row(in, b);
    r.normaliser = false;
    return r;
  }
};

template <class Policy>
std::unique_ptr<TransitionSubject> make() {
  return std::make_unique<TransitionHostTwin<Policy>>();
}

TransitionSubjectInfo probe(std::string name, std::string description, std::unique_ptr<TransitionSubject> (*make)()) {
  return {.name = std::move(name),
          .backend = "host",
          .kind = SubjectKind::probe,
          .description = std::move(description),
          .make = make};
}

}  // namespace

void register_transition_probes() {
  const auto probe = [](std::string name, std::string description, std::unique_ptr<TransitionSubject> (*make)()) {
    register_subject(probes::probe(std::move(name), std::move(description), make));
  };
  probe("probe-no-sqrt-dt", "prev = mean + std * eps, without sqrt(-dt)", &make<NoSqrtDt>);
  probe("probe-dt-sign-flipped", "dt = sigma - sigma_prev", &make<DtSignFlipped>);
  probe("probe-mean-over-batch", "the log-prob mean also runs over the batch dimension", &make<MeanOverBatch>);
  probe("probe-sum-not-mean", "the log-prob sums the row instead of averaging it", &make<SumInsteadOfMean>);
  probe("probe-normaliser-dropped", "drops -log(std sqrt(-dt)) - log(sqrt(2 pi)) even when asked",
        &make<NormaliserDropped>);
}

}  // namespace parity::subjects::probes
