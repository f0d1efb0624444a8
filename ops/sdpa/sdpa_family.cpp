// The sdpa and sdpa_backward op families: their declarations and references instantiated, and
// parity's own subjects of them registered as a user's are.
#include <parity/ops/sdpa/sdpa_family.hpp>

#include <string>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_cuda.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/sdpa/sdpa_op.hpp>
#include <parity/ops/sdpa/sdpa_torch.hpp>

namespace parity::ops::sdpa {
namespace {

// parity's kernel of attention's `pass` (host twin and CUDA) and LibTorch's.
BuiltinSubjects attention(const std::string& pass, MakeOpSubject host, MakeOpSubject cuda, MakeOpSubject torch) {
  return {.kernel = "parity's deterministic attention " + pass + " kernel",
          .make_host = host,
          .make_cuda = cuda,
          .torch = "LibTorch's attention " + pass + " on the CPU (" + torch_kernel() + ")",
          .make_torch = torch};
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Sdpa>(), [] {
    register_builtin_subjects(
        "sdpa", attention("forward", &make_host_twin, PARITY_OP_CUDA_KERNEL(&make_cuda_kernel), &make_torch_cpu));
    register_probes();
  });
  return f;
}

const gen::Family& backward_family() {
  static const OpFamily f(define_op<SdpaBackward>(), [] {
    register_builtin_subjects("sdpa_backward",
                              attention("backward", &make_backward_host_twin,
                                        PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel), &make_torch_cpu_backward));
    register_backward_probes();
  });
  return f;
}

}  // namespace parity::ops::sdpa
