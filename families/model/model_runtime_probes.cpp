#include <parity/families/model/model_runtime_probes.hpp>

#include <map>

#include <parity/core/bf16.hpp>
#include <parity/families/model/batch_variant_projection.hpp>

namespace parity::subjects::probes {
namespace {

using runtime::Binding;
using runtime::BindingStatus;
using runtime::BoundaryCall;
using runtime::Routine;
using runtime::Runtime;

class SilentFallback final : public Runtime {
 public:
  using Runtime::Runtime;
  const Routine* bind(const BoundaryCall& call) override {
    Decision d = decide(call);
    if (d.binding.status != BindingStatus::fallback) {
      record(call, d.binding);
      return d.routine ? instance(*d.routine) : nullptr;
    }
    record(call, Binding{d.binding.routine, BindingStatus::routine, "bound", 0});
    return nullptr;
  }
};

// Rounds every float32 output of the wrapped routine through bfloat16.
class Bf16LoggedRoutine final : public Routine {
 public:
  explicit Bf16LoggedRoutine(const Routine& inner) : inner_(inner) {}
  std::vector<Tensor> forward(const std::vector<Tensor>& operands) const override {
    std::vector<Tensor> out = inner_.forward(operands);
    for (Tensor& t : out)
      if (t.dtype() == DType::f32)
        for (std::int64_t i = 0; i < t.numel(); ++i)
          t.set_value(i, round_through_bf16(static_cast<float>(t.value_at(i))));
    return out;
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& operands, const std::vector<Tensor>& grads) const override {
    return inner_.backward(operands, grads);
  }

 private:
  const Routine& inner_;
};

class PerturbingAudit final : public Runtime {
 public:
  using Runtime::Runtime;
  const Routine* bind(const BoundaryCall& call) override {
    const Routine* routine = Runtime::bind(call);
    if (!routine || options().mode != runtime::Mode::audit) return routine;
    auto& wrapped = wrapped_[routine];
    if (!wrapped) wrapped = std::make_unique<Bf16LoggedRoutine>(*routine);
    return wrapped.get();
  }

 private:
  std::map<const Routine*, std::unique_ptr<Routine>> wrapped_;
};

runtime::RuntimeOptions without_ablations(runtime::RuntimeOptions o) {
  o.ablations.clear();
  return o;
}

template <class R>
std::unique_ptr<Runtime> make(const runtime::RoutineRegistry& routines, runtime::RuntimeOptions options) {
  return std::make_unique<R>(routines, std::move(options));
}

std::unique_ptr<Runtime> make_ablation_ignored(const runtime::RoutineRegistry& routines,
                                               runtime::RuntimeOptions options) {
  return std::make_unique<Runtime>(routines, without_ablations(std::move(options)));
}

// The routines argument is the model's own; this probe swaps in its own registry.
std::unique_ptr<Runtime> make_batch_variant(const runtime::RoutineRegistry&, runtime::RuntimeOptions options) {
  return std::make_unique<Runtime>(routines_with_batch_variant_projections(), std::move(options));
}

}  // namespace

const std::vector<RuntimeProbe>& model_runtime_probes() {
  static const std::vector<RuntimeProbe> probes = {
      {"silent-fallback", "strict runs the provider where a routine cannot take the call and logs the routine as bound",
       &make<SilentFallback>},
      {"perturbing-audit", "audit rounds the bound routines' float32 outputs through bfloat16", &make<PerturbingAudit>},
      {"ablation-ignored", "ablations are accepted but not applied: their targets stay bound", &make_ablation_ignored},
      {"batch-variant-projection", "video projection routines whose reduction order depends on the batch size",
       &make_batch_variant},
  };
  return probes;
}

}  // namespace parity::subjects::probes
