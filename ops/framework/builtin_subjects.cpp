#include <parity/ops/framework/builtin_subjects.hpp>

#include <parity/subjects/builtin/cuda_device.hpp>

namespace parity::ops {

OpSubjectInfo torch_subject(std::string description, MakeOpSubject make, std::string (*unavailable)()) {
  OpSubjectInfo info{.description = std::move(description), .make = make};
  if (unavailable) info.unavailable_reason = unavailable;
  return info;
}

OpSubjectInfo torch_not_linked() {
  return {.description = "LibTorch's implementation (not in this build)",
          .unavailable_reason =
              [] {
                return std::string(
                    "LibTorch's reference is not in this build (no PARITY_HAVE_TORCH where the op's family is "
                    "compiled: the libFuzzer harnesses, or a program that does not link parity::ops_torch)");
              },
          .make = [] { return std::unique_ptr<OpSubject>(); }};  // never called: unavailable
}

void register_builtin_subjects(const std::string& op, const BuiltinSubjects& s) {
  register_op_subject(
      op, {.name = "parity-host", .backend = "host", .description = s.kernel + ", host twin", .make = s.make_host});
  OpSubjectInfo cuda{.name = "parity-cuda",
                     .backend = "cuda",
                     .description = s.kernel + ", CUDA",
                     .host_twin = "parity-host",
                     .unavailable_reason = &subjects::builtin::cuda_unavailable_reason,
                     .make = s.make_cuda};
  if (!s.make_cuda) {
    cuda.unavailable_reason = [] {
      return std::string("this build has no CUDA kernel of the op (built without CUDA)");
    };
    cuda.make = [] { return std::unique_ptr<OpSubject>(); };  // never called: unavailable
  }
  register_op_subject(op, std::move(cuda));
  OpSubjectInfo torch = s.torch;
  torch.name = "torch-cpu";
  torch.backend = "torch-cpu";
  torch.kind = subjects::SubjectKind::reference;
  register_op_subject(op, std::move(torch));
  if (s.register_probes) s.register_probes();
}

}  // namespace parity::ops
