// The rope op family: its declaration and reference (rope_op.hpp) instantiated, and parity's
// own subjects of it registered as a user's are.
#include <parity/ops/rope/rope_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/rope/rope_cuda.hpp>
#include <parity/ops/rope/rope_host.hpp>
#include <parity/ops/rope/rope_op.hpp>
#include <parity/ops/rope/rope_torch.hpp>

namespace parity::ops::rope {
namespace {

void register_builtins() {
  register_builtin_subjects("rope", {.kernel = "parity's deterministic RoPE kernel",
                                     .make_host = &make_host_twin,
                                     .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                     .torch = "LibTorch's x * cos + rotate(x) * sin on the CPU",
                                     .make_torch = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Rope>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::rope
