#include <parity/properties/model/attention_bound_rows.hpp>

#include <map>
#include <memory>
#include <mutex>

#include <parity/core/error.hpp>
#include <parity/subjects/model/rows/attention.hpp>
#include <parity/subjects/model/rows/model_rows.hpp>
#include <parity/subjects/model/rows/row_checks.hpp>
#include <parity/subjects/model/rows/row_primitives.hpp>
#include <parity/subjects/model/rows/sdpa_kernels.hpp>

namespace parity::properties::model {
namespace {

using parity::model::AttentionOperands;
using runtime::Backend;

bool is_attention(const runtime::RowInfo& row) { return row.serves.size() == 1 && row.serves.front() == "attention"; }

// The attention row on the kernels (operands h, wq, wk, wv, wo, norm_q, norm_k, cos, sin).
class OpAttentionRow final : public runtime::Row {
 public:
  explicit OpAttentionRow(parity::model::Primitives p) : p_(std::move(p)) {}
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {parity::model::attention_forward(p_, AttentionOperands::from(o))};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    std::vector<Tensor> grads(o.size());
    grads[0] = parity::model::attention_backward_input(p_, AttentionOperands::from(o), g.at(0));
    return grads;
  }

 private:
  parity::model::Primitives p_;
};

// Why the kernel of either op cannot run here ("" when both can).
std::string unavailable(const ops::OpSubjectInfo& forward, const ops::OpSubjectInfo& backward) {
  if (std::string why = kernel_unavailable(kAttentionOp, forward); !why.empty()) return why;
  return kernel_unavailable(kAttentionBackwardOp, backward);
}

runtime::RowRegistry build(const ops::OpSubjectInfo& forward, const ops::OpSubjectInfo& backward) {
  const auto make = [forward, backward](Backend b) -> std::unique_ptr<runtime::Row> {
    const ops::OpSubjectInfo& f = kernel_for_backend(kAttentionOp, forward, b);
    const ops::OpSubjectInfo& g = kernel_for_backend(kAttentionBackwardOp, backward, b);
    return std::make_unique<OpAttentionRow>(parity::model::with_sdpa_kernels(
        parity::model::primitives(b), f.name, make_kernel(kAttentionOp, f), make_kernel(kAttentionBackwardOp, g)));
  };
  const auto check = parity::model::repeatable_self_check_with_backward(
      make, [] { return AttentionOperands::example().list(); });
  runtime::RowRegistry r;
  for (runtime::RowInfo row : parity::model::model_rows().rows()) {
    if (is_attention(row)) {
      row.name += "=" + forward.name;
      row.make = make;
      row.cannot_take = [forward, backward, replaced = row.cannot_take](const runtime::BoundaryCall& call, Backend b) {
        if (std::string why = replaced(call, b); !why.empty()) return why;
        return unavailable(forward, backward);
      };
      row.self_check = [forward, backward, check](Backend b) {
        if (std::string why = unavailable(forward, backward); !why.empty()) return why;
        return check(b);
      };
    }
    r.add(std::move(row));
  }
  return r;
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
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<runtime::RowRegistry>> registries;
  const ops::OpSubjectInfo& forward = bindable_subject(kAttentionOp, subject, backend);
  const ops::OpSubjectInfo& backward = bindable_subject(kAttentionBackwardOp, subject, backend);
  std::lock_guard lock(m);
  auto& r = registries[subject];
  if (!r) r = std::make_unique<runtime::RowRegistry>(build(forward, backward));
  return *r;
}

}  // namespace parity::properties::model
