// The softmax op family: its declaration and reference (softmax_op.hpp) instantiated, and
// parity's own subjects of it registered as a user's are.
#include <parity/ops/softmax/softmax_family.hpp>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/softmax/softmax_host.hpp>
#include <parity/ops/softmax/softmax_op.hpp>
#include <parity/ops/softmax/softmax_torch.hpp>

namespace parity::ops::softmax {
namespace {

void register_builtins() {
  register_op_subject("softmax", {.name = "rlkernels-host", .backend = "host",
                                  .description = "parity's deterministic softmax kernel, host twin", .make = &make_host_twin});
  register_op_subject("softmax", {.name = "torch-cpu", .backend = "torch-cpu", .kind = subjects::SubjectKind::reference,
                                  .description = "LibTorch's at::softmax and at::log_softmax on the CPU",
                                  .make = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Softmax>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::softmax
