// The layer_norm op family: its declaration and reference (layer_norm_op.hpp) instantiated, and parity's
// own subjects of it registered as a user's are.
#include <parity/ops/layer_norm/layer_norm_family.hpp>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/layer_norm/layer_norm_host.hpp>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#include <parity/ops/layer_norm/layer_norm_torch.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#if PARITY_HAVE_CUDA
#include <parity/ops/layer_norm/layer_norm_cuda.hpp>
#endif

namespace parity::ops::layer_norm {
namespace {

#if PARITY_HAVE_CUDA
std::unique_ptr<OpSubject> make_cuda() { return make_cuda_kernel(); }
#else
std::unique_ptr<OpSubject> make_cuda() { return nullptr; }  // never called: unavailable
#endif

void register_builtins() {
  register_op_subject("layer_norm", {.name = "rlkernels-host", .backend = "host",
                                 .description = "parity's deterministic LayerNorm kernel, host twin", .make = &make_host_twin});
  register_op_subject("layer_norm", {.name = "rlkernels-cuda", .backend = "cuda",
                                 .description = "parity's deterministic LayerNorm kernel, CUDA", .host_twin = "rlkernels-host",
                                 .unavailable_reason = &subjects::rlkernels::cuda_unavailable_reason, .make = &make_cuda});
  register_op_subject("layer_norm", {.name = "torch-cpu", .backend = "torch-cpu", .kind = subjects::SubjectKind::reference,
                                 .description = "LibTorch's at::layer_norm on the CPU", .make = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<LayerNorm>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::layer_norm
