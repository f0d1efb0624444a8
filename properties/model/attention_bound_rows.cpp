#include <parity/properties/model/attention_bound_rows.hpp>

#include <parity/core/error.hpp>
#include <parity/subjects/model/rows/row_primitives.hpp>
#include <parity/subjects/model/rows/sdpa_kernels.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

bool is_attention(const runtime::RowInfo& row) { return row.serves.size() == 1 && row.serves.front() == "attention"; }

// Why the kernel of either op cannot run here ("" when both can).
std::string unavailable(const ops::OpSubjectInfo& forward, const ops::OpSubjectInfo& backward) {
  if (std::string why = kernel_unavailable(kAttentionOp, forward); !why.empty()) return why;
  return kernel_unavailable(kAttentionBackwardOp, backward);
}

runtime::RowRegistry build(const ops::OpSubjectInfo& forward, const ops::OpSubjectInfo& backward) {
  const parity::model::PrimitivesOf of = [forward, backward](Backend b) {
    const ops::OpSubjectInfo& f = kernel_for_backend(kAttentionOp, forward, b);
    const ops::OpSubjectInfo& g = kernel_for_backend(kAttentionBackwardOp, backward, b);
    return parity::model::with_sdpa_kernels(parity::model::primitives(b), f.name, make_kernel(kAttentionOp, f),
                                            make_kernel(kAttentionBackwardOp, g));
  };
  return rows_on_kernel(of, is_attention, forward.name, [forward, backward] { return unavailable(forward, backward); });
}

}  // namespace

std::vector<BoundKernel> attention_kernels() {
  std::vector<BoundKernel> out;
  for (BoundKernel k : bindable_kernels(kAttentionOp)) {
    const ops::OpSubjectInfo* backward = find_op_kernel(kAttentionBackwardOp, k.name);
    if (!backward || runtime_backend(*backward) != k.backend || backward->kind != subjects::SubjectKind::implementation)
      continue;
    const ops::OpSubjectInfo* forward = find_op_kernel(kAttentionOp, k.name);
    k.unavailable = [forward, backward] { return unavailable(*forward, *backward); };
    out.push_back(std::move(k));
  }
  return out;
}

const runtime::RowRegistry& rows_with_attention_kernel(const std::string& subject, Backend backend) {
  const ops::OpSubjectInfo& forward = bindable_subject(kAttentionOp, subject, backend);
  const ops::OpSubjectInfo& backward = bindable_subject(kAttentionBackwardOp, subject, backend);
  return rows_once("attention:" + std::string(kAttentionOp) + "=" + subject,
                   [&] { return build(forward, backward); });
}

}  // namespace parity::properties::model
