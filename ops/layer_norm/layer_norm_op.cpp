// The layer_norm op: its declaration (layer_norm_op.hpp) with parity's kernels of it, LibTorch's and the mismatch
// probes (layer_norm_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/layer_norm/layer_norm_host.hpp>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#include <parity/ops/layer_norm/layer_norm_subjects.hpp>

namespace parity::ops::layer_norm {

const gen::Family& family() {
  return shipped_op_family<LayerNorm>({.kernel = "parity's deterministic LayerNorm kernel",
                                       .make_host = &make_op_subject<LayerNormHost<Standard>>,
                                       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                       .torch = torch_subject("LibTorch's at::layer_norm on the CPU", &make_torch_cpu),
                                       .register_probes = &register_probes});
}

}  // namespace parity::ops::layer_norm
