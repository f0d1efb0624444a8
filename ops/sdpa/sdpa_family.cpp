// The sdpa and sdpa_backward op families: their declarations and references instantiated, and
// parity's own subjects of them registered as a user's are.
#include <parity/ops/sdpa/sdpa_family.hpp>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/sdpa/sdpa_op.hpp>
#include <parity/ops/sdpa/sdpa_torch.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#if PARITY_HAVE_CUDA
#include <parity/ops/sdpa/sdpa_cuda.hpp>
#endif

namespace parity::ops::sdpa {
namespace {

using Make = std::unique_ptr<OpSubject> (*)();
#if PARITY_HAVE_CUDA
constexpr Make kCuda = &make_cuda_kernel, kCudaBackward = &make_cuda_backward_kernel;
#else
std::unique_ptr<OpSubject> none() { return nullptr; }  // never called: unavailable
constexpr Make kCuda = &none, kCudaBackward = &none;
#endif

// parity's kernel (host twin and CUDA) and LibTorch's of `op`, then its probes.
void register_builtins(const char* op, const char* what, Make host, Make cuda, Make torch, void (*probes)()) {
  const std::string kernel = std::string("parity's deterministic ") + what + " kernel";
  register_op_subject(op, {.name = "rlkernels-host", .backend = "host", .description = kernel + ", host twin", .make = host});
  register_op_subject(op, {.name = "rlkernels-cuda", .backend = "cuda", .description = kernel + ", CUDA",
                           .host_twin = "rlkernels-host", .unavailable_reason = &subjects::rlkernels::cuda_unavailable_reason,
                           .make = cuda});
  register_op_subject(op, {.name = "torch-cpu", .backend = "torch-cpu", .kind = subjects::SubjectKind::reference,
                           .description = std::string("LibTorch's ") + what + " on the CPU (flash attention for CPU)",
                           .make = torch});
  probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Sdpa>(), [] {
    register_builtins("sdpa", "attention forward", &make_host_twin, kCuda, &make_torch_cpu, &register_probes);
  });
  return f;
}

const gen::Family& backward_family() {
  static const OpFamily f(define_op<SdpaBackward>(), [] {
    register_builtins("sdpa_backward", "attention backward", &make_backward_host_twin, kCudaBackward,
                      &make_torch_cpu_backward, &register_backward_probes);
  });
  return f;
}

}  // namespace parity::ops::sdpa
