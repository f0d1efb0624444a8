// The layer_norm op family: its declaration and reference (layer_norm_op.hpp) instantiated, and parity's
// own subjects of it registered as a user's are.
#include <parity/ops/layer_norm/layer_norm_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/layer_norm/layer_norm_cuda.hpp>
#include <parity/ops/layer_norm/layer_norm_host.hpp>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#include <parity/ops/layer_norm/layer_norm_torch.hpp>

namespace parity::ops::layer_norm {
namespace {

void register_builtins() {
  register_builtin_subjects("layer_norm", {.kernel = "parity's deterministic LayerNorm kernel",
                                           .make_host = &make_host_twin,
                                           .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                           .torch = "LibTorch's at::layer_norm on the CPU",
                                           .make_torch = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<LayerNorm>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::layer_norm
