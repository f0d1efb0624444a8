// parity's own transition subjects — its kernel, LibTorch's formula and a second formulation —
// registered through the same register_subject as a user's, and the family's view
// of the registry.
#include <parity/subjects/builtin/cuda_device.hpp>
#include <parity/subjects/builtin/transition_host.hpp>
#include <parity/subjects/torch/transition_torch.hpp>
#include <parity/subjects/transition_family.hpp>
#if PARITY_HAVE_CUDA
#include <parity/subjects/builtin/transition_cuda.hpp>
#endif

namespace parity::subjects {
namespace {

#if PARITY_HAVE_CUDA
std::unique_ptr<TransitionSubject> make_cuda_transition_subject() { return builtin::make_transition_cuda_kernel(); }
#else
std::unique_ptr<TransitionSubject> make_cuda_transition_subject() { return nullptr; }  // never called: unavailable
#endif

void register_builtin_transition_subjects() {
  register_subject(TransitionSubjectInfo{.name = "parity-host",
                                         .backend = "host",
                                         .description = "parity's deterministic transition kernel, host twin",
                                         .make = &builtin::make_transition_host_twin});
  register_subject(TransitionSubjectInfo{.name = "parity-cuda",
                                         .backend = "cuda",
                                         .description = "parity's deterministic transition kernel, CUDA",
                                         .host_twin = "parity-host",
                                         .unavailable_reason = &builtin::cuda_unavailable_reason,
                                         .make = &make_cuda_transition_subject});
  for (bool cuda : {false, true}) {
    const std::string suffix = cuda ? "cuda" : "cpu";
    const auto unavailable = [cuda] { return torch_impl::transition_torch_unavailable_reason(cuda); };
    register_subject(
        TransitionSubjectInfo{.name = "torch-" + suffix,
                              .backend = "torch-" + suffix,
                              .kind = SubjectKind::reference,
                              .description = "Flow-GRPO's sde_step_with_logprob in LibTorch ops, " + suffix,
                              .unavailable_reason = unavailable,
                              .make = [cuda] { return torch_impl::make_transition_torch(cuda); }});
    register_subject(TransitionSubjectInfo{
        .name = "torch-second-" + suffix,
        .backend = "torch-" + suffix,
        .kind = SubjectKind::reference,
        .description = "a second formulation of the step (normalised residual, flatten-mean), " + suffix,
        .unavailable_reason = unavailable,
        .make = [cuda] { return torch_impl::make_transition_torch_second(cuda); }});
  }
}

}  // namespace

const std::vector<TransitionSubjectInfo>& transition_subjects() {
  static const bool builtins_registered = (register_builtin_transition_subjects(), true);
  (void)builtins_registered;
  return SubjectRegistry<TransitionSubject>::instance().entries();
}

const TransitionSubjectInfo& find_transition_subject(const std::string& name) {
  transition_subjects();
  return SubjectRegistry<TransitionSubject>::instance().find(name, "transition");
}

}  // namespace parity::subjects
