#include "subjects/probes/batch_variant_projection.hpp"

#include "subjects/model/rows/model_rows.hpp"
#include "subjects/model/rows/row_checks.hpp"
#include "subjects/model/rows/row_shapes.hpp"
#include "subjects/model/rows/row_primitives.hpp"
#include "subjects/model/rows/tensor_ops.hpp"

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

class BatchVariantLinear final : public runtime::Row {
 public:
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    const auto& p = model::primitives(Backend::host);
    const Tensor& x = o.at(0);
    std::vector<std::int64_t> shape = x.shape();
    const std::int64_t K = shape.back();
    shape.back() = o.at(1).dim(0);
    Tensor x2 = model::reshaped(x, {x.numel() / K, K});
    Tensor W = o.at(1);
    if (x.dim(0) > 1) {  // more than one sample: the other order
      x2 = reversed_columns(x2);
      W = reversed_columns(W);
    }
    return {model::reshaped(p.linear_forward(x2, W, &o.at(2)), shape)};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    const auto& p = model::primitives(Backend::host);
    const Tensor& dy = g.at(0);
    const std::int64_t N = dy.shape().back();
    return {model::reshaped(p.linear_backward_input(model::reshaped(dy, {dy.numel() / N, N}), o.at(1)), o.at(0).shape()),
            Tensor(), Tensor()};
  }
};

runtime::RowInfo probe_row(const std::string& name, const std::string& kind) {
  auto make = [](Backend) -> std::unique_ptr<runtime::Row> { return std::make_unique<BatchVariantLinear>(); };
  return runtime::RowInfo{name, "linear", "x f32, W f32, b f32 -> y f32", "x [..., K]", {kind}, runtime::OptIn::video_projections,
                          true,
                          [](const runtime::BoundaryCall& call, Backend backend) {
                            return model::refusal(call, backend, {DType::f32, DType::f32, DType::f32}, {"x", "W", "b"},
                                                  model::linear_shapes);
                          },
                          make, nullptr};
}

runtime::RowRegistry build() {
  runtime::RowRegistry r;
  for (const auto& row : model::model_rows().rows())
    if (row.serves.front() != "proj_in" && row.serves.front() != "proj_out") r.add(row);
  // Under the real rows' names: a defective kernel registered in their place.
  r.add(probe_row("video_input_projection_fp32", "proj_in"));
  r.add(probe_row("video_output_projection_fp32", "proj_out"));
  return r;
}

}  // namespace

const runtime::RowRegistry& rows_with_batch_variant_projections() {
  static const runtime::RowRegistry registry = build();
  return registry;
}

}  // namespace parity::subjects::probes
