#include <parity/subjects/probes/batch_variant_projection.hpp>

#include <parity/subjects/model/rows/model_rows.hpp>
#include <parity/subjects/model/rows/row_primitives.hpp>
#include <parity/subjects/model/rows/tensor_ops.hpp>

namespace parity::subjects::probes {
namespace {

using runtime::Backend;

// Columns [K-1 .. 0] of a row-major [M, K] tensor.
Tensor reversed_columns(const Tensor& t) {
  const Tensor c = t.contiguous();
  const std::int64_t M = c.dim(0), K = c.dim(1);
  Tensor out = Tensor::zeros(c.dtype(), {M, K});
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t k = 0; k < K; ++k) out.set_bits(m * K + k, c.bits_at(m * K + K - 1 - k));
  return out;
}

// The real linear row, except that a call holding more than one sample reduces over K in
// reverse order. Its backward is the real row's.
class BatchVariantLinear final : public runtime::Row {
 public:
  explicit BatchVariantLinear(std::unique_ptr<runtime::Row> real) : real_(std::move(real)) {}
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    if (o.at(0).dim(0) <= 1) return real_->forward(o);
    const Tensor W = reversed_columns(o.at(1));
    return {model::as_token_rows(o.at(0), [&](const Tensor& x) {
      return model::primitives(Backend::host).linear_forward(reversed_columns(x), W, &o.at(2));
    })};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    return real_->backward(o, g);
  }

 private:
  std::unique_ptr<runtime::Row> real_;
};

runtime::RowRegistry build() {
  runtime::RowRegistry r;
  for (runtime::RowInfo row : model::model_rows().rows()) {
    if (row.serves.front() == "proj_in" || row.serves.front() == "proj_out") {
      // The real row's name, acceptance and opt-in: a defective kernel registered in its place.
      row.make = [real = row.make](Backend) -> std::unique_ptr<runtime::Row> {
        return std::make_unique<BatchVariantLinear>(real(Backend::host));
      };
      row.self_check = nullptr;
    }
    r.add(std::move(row));
  }
  return r;
}

}  // namespace

const runtime::RowRegistry& rows_with_batch_variant_projections() {
  static const runtime::RowRegistry registry = build();
  return registry;
}

}  // namespace parity::subjects::probes
