// The catalog of built-in LoRA subjects: parity's own kernels, LibTorch, and the probes.
#include "core/error.hpp"
#include "subjects/lora_family.hpp"
#include "subjects/probes/lora_probes.hpp"
#include "subjects/rlkernels/lora_host.hpp"
#include "subjects/torch/lora_torch.hpp"
#if PARITY_HAVE_CUDA
#include "subjects/rlkernels/cuda_device.hpp"
#include "subjects/rlkernels/lora_cuda.hpp"
#endif

namespace parity::subjects {
namespace {

std::vector<LoraSubjectInfo> build_catalog() {
  std::vector<LoraSubjectInfo> all;
  all.push_back({"rlkernels-host", "host", SubjectKind::implementation,
                 "parity's deterministic LoRA kernel, host twin",
                 [] { return std::string(); }, &rlkernels::make_lora_host_twin});
#if PARITY_HAVE_CUDA
  all.push_back({"rlkernels-cuda", "cuda", SubjectKind::implementation,
                 "parity's deterministic LoRA kernel, CUDA", &rlkernels::cuda_unavailable_reason,
                 &rlkernels::make_lora_cuda_kernel});
#else
  all.push_back({"rlkernels-cuda", "cuda", SubjectKind::implementation,
                 "parity's deterministic LoRA kernel, CUDA",
                 [] { return std::string("this parity was built without CUDA (no nvcc)"); },
                 [] { return std::unique_ptr<LoraSubject>(); }});
#endif
  all.push_back({"torch-cpu", "torch-cpu", SubjectKind::reference,
                 "LibTorch linear + LoRA path + autograd, CPU",
                 [] { return torch_impl::lora_torch_unavailable_reason(false); },
                 [] { return torch_impl::make_lora_torch(false); }});
  all.push_back({"torch-cuda", "torch-cuda", SubjectKind::reference,
                 "LibTorch linear + LoRA path + autograd, CUDA",
                 [] { return torch_impl::lora_torch_unavailable_reason(true); },
                 [] { return torch_impl::make_lora_torch(true); }});
  for (const auto& p : probes::lora_probes())
    all.push_back({p.name, "host", SubjectKind::probe, p.description, [] { return std::string(); },
                   p.make});
  return all;
}

}  // namespace

const LoraSubjectInfo& find_lora_subject(const std::string& name) {
  std::string known;
  for (const auto& s : lora_subjects()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("unknown lora subject '" + name + "' (known: " + known + ")");
}

const std::vector<LoraSubjectInfo>& lora_subjects() {
  static const std::vector<LoraSubjectInfo> catalog = build_catalog();
  return catalog;
}

}  // namespace parity::subjects
