#include <parity/families/model/op_bound_rows.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/op_kernels.hpp>
#include <parity/families/model/rows/linear_kernel.hpp>
#include <parity/families/model/rows/row_primitives.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

// The boundaries parity serves with float32 linear rows (families/model/rows/model_rows.hpp).
bool is_f32_projection(const runtime::RowInfo& row) {
  for (const char* kind : {"audio_proj_in", "audio_proj_out", "proj_in", "proj_out"})
    if (row.serves.size() == 1 && row.serves.front() == kind) return true;
  return false;
}

runtime::RowRegistry build(const ops::OpSubjectInfo& info) {
  // On the kernel's backend the projections run the kernel; on the host, for a CUDA kernel, its
  // host twin. The rows' self-check repeats forward and backward (the kernel without a bias, on
  // dy and W^T) and on CUDA compares with the host twin.
  const parity::model::PrimitivesOf of = [info](Backend b) {
    const ops::OpSubjectInfo& kernel = kernel_for_backend(kProjectionOp, info, b);
    return parity::model::with_linear_kernel(parity::model::primitives(b), kernel.name,
                                             make_kernel(kProjectionOp, kernel));
  };
  return rows_on_kernel(of, is_f32_projection, info.name, [info] { return kernel_unavailable(kProjectionOp, info); });
}

}  // namespace

std::vector<BoundKernel> projection_kernels() { return bindable_kernels(kProjectionOp); }

const runtime::RowRegistry& rows_with_projection_kernel(const std::string& subject, Backend backend) {
  const ops::OpSubjectInfo& info = bindable_subject(kProjectionOp, subject, backend);
  return rows_once("projections:" + std::string(kProjectionOp) + "=" + subject, [&info] { return build(info); });
}

}  // namespace parity::properties::model
