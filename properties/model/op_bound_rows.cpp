#include <parity/properties/model/op_bound_rows.hpp>

#include <map>
#include <memory>
#include <mutex>

#include <parity/core/error.hpp>
#include <parity/properties/model/op_kernels.hpp>
#include <parity/subjects/model/rows/linear_kernel.hpp>
#include <parity/subjects/model/rows/model_rows.hpp>
#include <parity/subjects/model/rows/row_checks.hpp>
#include <parity/subjects/model/rows/tensor_ops.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

// The boundaries parity serves with float32 linear rows (subjects/model/rows/model_rows.hpp).
bool is_f32_projection(const runtime::RowInfo& row) {
  for (const char* kind : {"audio_proj_in", "audio_proj_out", "proj_in", "proj_out"})
    if (row.serves.size() == 1 && row.serves.front() == kind) return true;
  return false;
}

// A projection row on one kernel of the op (op_bound_rows.hpp).
class OpProjectionRow final : public runtime::Row {
 public:
  OpProjectionRow(std::string subject, std::unique_ptr<ops::OpSubject> kernel)
      : subject_(std::move(subject)), kernel_(std::move(kernel)) {}

  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {parity::model::as_token_rows(o.at(0), [&](const Tensor& x) { return linear(x, o.at(1), &o.at(2)); })};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    const Tensor Wt = parity::model::transposed(o.at(1));
    return {parity::model::as_token_rows(g.at(0), [&](const Tensor& dy) { return linear(dy, Wt, nullptr); }), Tensor(), Tensor()};
  }

 private:
  Tensor linear(const Tensor& x, const Tensor& W, const Tensor* b) const {
    return parity::model::linear_by(*kernel_, subject_, x, W, b);
  }

  std::string subject_;
  std::unique_ptr<ops::OpSubject> kernel_;  // stateless across calls (op_subject.hpp)
};

// A row on `info`'s kernel.
std::unique_ptr<runtime::Row> make_row(const ops::OpSubjectInfo& info) {
  return std::make_unique<OpProjectionRow>(info.name, make_kernel(kProjectionOp, info));
}

runtime::RowRegistry build(const ops::OpSubjectInfo& info) {
  // On the kernel's backend the row is the kernel; on the host, for a CUDA kernel, its host twin.
  const auto make = [info](Backend b) -> std::unique_ptr<runtime::Row> {
    return make_row(kernel_for_backend(kProjectionOp, info, b));
  };
  // Forward and backward (the kernel without a bias, on dy and W^T) each twice on one example,
  // the same bits and finite, and on CUDA the host twin's.
  const auto check = parity::model::repeatable_self_check_with_backward(make, [] {
    return std::vector<Tensor>{parity::model::example_operand(DType::f32, {3, 5}, 1),
                               parity::model::example_operand(DType::f32, {4, 5}, 2),
                               parity::model::example_operand(DType::f32, {4}, 3)};
  });
  runtime::RowRegistry r;
  for (runtime::RowInfo row : parity::model::model_rows().rows()) {
    if (is_f32_projection(row)) {
      row.name += "=" + info.name;
      row.make = make;
      row.cannot_take = [info, replaced = row.cannot_take](const runtime::BoundaryCall& call, Backend b) {
        if (std::string why = replaced(call, b); !why.empty()) return why;
        return kernel_unavailable(kProjectionOp, info);
      };
      row.self_check = [info, check](Backend b) {
        if (std::string why = kernel_unavailable(kProjectionOp, info); !why.empty()) return why;
        return check(b);
      };
    }
    r.add(std::move(row));
  }
  return r;
}

}  // namespace

std::vector<BoundKernel> projection_kernels() { return bindable_kernels(kProjectionOp); }

const runtime::RowRegistry& rows_with_projection_kernel(const std::string& subject, Backend backend) {
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<runtime::RowRegistry>> registries;
  const ops::OpSubjectInfo& info = bindable_subject(kProjectionOp, subject, backend);
  std::lock_guard lock(m);
  auto& r = registries[subject];
  if (!r) r = std::make_unique<runtime::RowRegistry>(build(info));
  return *r;
}

}  // namespace parity::properties::model
