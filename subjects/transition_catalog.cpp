// The catalog of built-in transition subjects: parity's kernel, LibTorch's formula and a second
// formulation, and the probes.
#include "core/error.hpp"
#include "subjects/probes/transition_probes.hpp"
#include "subjects/rlkernels/transition_host.hpp"
#include "subjects/torch/transition_torch.hpp"
#include "subjects/transition_family.hpp"
#if PARITY_HAVE_CUDA
#include "subjects/rlkernels/cuda_device.hpp"
#include "subjects/rlkernels/transition_cuda.hpp"
#endif

namespace parity::subjects {
namespace {

std::vector<TransitionSubjectInfo> build_catalog() {
  std::vector<TransitionSubjectInfo> all;
  all.push_back({"rlkernels-host", "host", SubjectKind::implementation,
                 "parity's deterministic transition kernel, host twin", [] { return std::string(); },
                 &rlkernels::make_transition_host_twin});
#if PARITY_HAVE_CUDA
  all.push_back({"rlkernels-cuda", "cuda", SubjectKind::implementation, "parity's deterministic transition kernel, CUDA",
                 &rlkernels::cuda_unavailable_reason, &rlkernels::make_transition_cuda_kernel});
#else
  all.push_back({"rlkernels-cuda", "cuda", SubjectKind::implementation, "parity's deterministic transition kernel, CUDA",
                 [] { return std::string("this parity was built without CUDA (no nvcc)"); },
                 [] { return std::unique_ptr<TransitionSubject>(); }});
#endif
  for (bool cuda : {false, true}) {
    const std::string suffix = cuda ? "cuda" : "cpu";
    all.push_back({"torch-" + suffix, "torch-" + suffix, SubjectKind::reference,
                   "Flow-GRPO's sde_step_with_logprob in LibTorch ops, " + suffix,
                   [cuda] { return torch_impl::transition_torch_unavailable_reason(cuda); },
                   [cuda] { return torch_impl::make_transition_torch(cuda); }});
    all.push_back({"torch-second-" + suffix, "torch-" + suffix, SubjectKind::reference,
                   "a second formulation of the step (normalised residual, flatten-mean), " + suffix,
                   [cuda] { return torch_impl::transition_torch_unavailable_reason(cuda); },
                   [cuda] { return torch_impl::make_transition_torch_second(cuda); }});
  }
  for (const auto& p : probes::transition_probes())
    all.push_back({p.name, "host", SubjectKind::probe, p.description, [] { return std::string(); }, p.make});
  return all;
}

}  // namespace

const std::vector<TransitionSubjectInfo>& transition_subjects() {
  static const std::vector<TransitionSubjectInfo> catalog = build_catalog();
  return catalog;
}

const TransitionSubjectInfo& find_transition_subject(const std::string& name) {
  std::string known;
  for (const auto& s : transition_subjects()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("unknown transition subject '" + name + "' (known: " + known + ")");
}

}  // namespace parity::subjects
