// The linear op: its declaration (linear_op.hpp) with parity's kernels of it, LibTorch's and the mismatch probes
// (linear_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/linear/linear_host.hpp>
#include <parity/ops/linear/linear_op.hpp>
#include <parity/ops/linear/linear_subjects.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::linear {

const gen::Family& family() {
  return shipped_op_family<Linear>(
      {.kernel = "parity's deterministic linear kernel",
       .make_host = &make_op_subject<LinearHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_op_reference(Linear::declaration(),
                                   {.schema = "aten::linear", .args = {{"x", "input"}, {"W", "weight"}, {"b", "bias"}}},
                                   "LibTorch's aten::linear on the CPU, by schema name"),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::linear
