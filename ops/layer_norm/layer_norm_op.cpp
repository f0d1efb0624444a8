// The layer_norm op: its declaration (layer_norm_op.hpp) with parity's kernels of it, LibTorch's and the mismatch
// probes (layer_norm_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/layer_norm/layer_norm_host.hpp>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#include <parity/ops/layer_norm/layer_norm_subjects.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::layer_norm {

const gen::Family& family() {
  return shipped_op_family<LayerNorm>(
      {.kernel = "parity's deterministic LayerNorm kernel",
       .make_host = &make_op_subject<LayerNormHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch =
           torch_op_reference(LayerNorm::declaration(),
                              {.schema = "aten::layer_norm",
                               .args = {{"x", "input"}, {"w", "weight"}, {"b", "bias"}, {"normalized_shape", "[D]"}}},
                              "LibTorch's aten::layer_norm on the CPU, by schema name"),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::layer_norm
