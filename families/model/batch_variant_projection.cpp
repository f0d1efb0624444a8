#include <parity/families/model/batch_variant_projection.hpp>

#include <parity/families/model/rows/model_rows.hpp>
#include <parity/families/model/rows/row_primitives.hpp>
#include <parity/families/model/rows/tensor_ops.hpp>

namespace parity::subjects::probes {
namespace {

using runtime::Backend;

// Columns [begin, end) of a [M, K] tensor, contiguous.
Tensor columns(const Tensor& t, std::int64_t begin, std::int64_t end) {
  const Tensor c = t.contiguous();
  const std::int64_t M = c.dim(0), K = c.dim(1);
  Tensor out = Tensor::zeros(c.dtype(), {M, end - begin});
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t k = begin; k < end; ++k) out.set_bits(m * (end - begin) + k - begin, c.bits_at(m * K + k));
  return out;
}

// The real linear row, except that a call holding more than one sample splits the reduction
// over K in two halves, each reduced by parity's linear kernel, and adds them (then the bias is
// in the second half's sum). Its backward is the real row's.
class BatchVariantLinear final : public runtime::Row {
 public:
  explicit BatchVariantLinear(std::unique_ptr<runtime::Row> real) : real_(std::move(real)) {}
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    const Tensor& W = o.at(1);
    const std::int64_t K = W.dim(1), half = K / 2;
    if (o.at(0).dim(0) <= 1 || half == 0) return real_->forward(o);
    const model::Primitives& p = model::primitives(Backend::host);
    const Tensor W0 = columns(W, 0, half), W1 = columns(W, half, K);
    return {model::as_token_rows(o.at(0), [&](const Tensor& x) {
      return model::add_f32(p.linear_forward(columns(x, 0, half), W0, nullptr),
                            p.linear_forward(columns(x, half, K), W1, &o.at(2)));
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
