// parity's own LoRA subjects — its kernels, LibTorch, the probes — registered through the same
// register_subject as a user's, and the family's view of the registry.
#include <parity/subjects/builtin/cuda_device.hpp>
#include <parity/subjects/builtin/lora_host.hpp>
#include <parity/subjects/lora_family.hpp>
#include <parity/subjects/probes/lora_probes.hpp>
#include <parity/subjects/torch/lora_torch.hpp>
#if PARITY_HAVE_CUDA
#include <parity/subjects/builtin/lora_cuda.hpp>
#endif

namespace parity::subjects {
namespace {

#if PARITY_HAVE_CUDA
std::unique_ptr<LoraSubject> make_cuda_lora_subject() { return builtin::make_lora_cuda_kernel(); }
#else
std::unique_ptr<LoraSubject> make_cuda_lora_subject() { return nullptr; }  // never called: unavailable
#endif

void register_builtin_lora_subjects() {
  register_subject(LoraSubjectInfo{.name = "parity-host",
                                   .backend = "host",
                                   .description = "parity's deterministic LoRA kernel, host twin",
                                   .make = &builtin::make_lora_host_twin});
  register_subject(LoraSubjectInfo{.name = "parity-cuda",
                                   .backend = "cuda",
                                   .description = "parity's deterministic LoRA kernel, CUDA",
                                   .host_twin = "parity-host",
                                   .unavailable_reason = &builtin::cuda_unavailable_reason,
                                   .make = &make_cuda_lora_subject});
  for (bool cuda : {false, true}) {
    const std::string backend = cuda ? "torch-cuda" : "torch-cpu";
    register_subject(LoraSubjectInfo{
        .name = backend,
        .backend = backend,
        .kind = SubjectKind::reference,
        .description = std::string("LibTorch linear + LoRA path + autograd, ") + (cuda ? "CUDA" : "CPU"),
        .unavailable_reason = [cuda] { return torch_impl::lora_torch_unavailable_reason(cuda); },
        .make = [cuda] { return torch_impl::make_lora_torch(cuda); }});
  }
  probes::register_lora_probes();
}

}  // namespace

const std::vector<LoraSubjectInfo>& lora_subjects() {
  static const bool builtins_registered = (register_builtin_lora_subjects(), true);
  (void)builtins_registered;
  return SubjectRegistry<LoraSubject>::instance().entries();
}

const LoraSubjectInfo& find_lora_subject(const std::string& name) {
  lora_subjects();
  return SubjectRegistry<LoraSubject>::instance().find(name, "lora");
}

}  // namespace parity::subjects
