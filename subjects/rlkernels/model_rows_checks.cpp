#include <parity/subjects/rlkernels/model_rows_checks.hpp>

#include <string>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

void require(bool ok, const char* what, const std::string& message) {
  if (!ok) throw InputError(std::string(what) + ": " + message);
}

std::string shape_text(const Tensor& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape().size(); ++i) s += (i ? "," : "") + std::to_string(t.dim(i));
  return s + "]";
}

void require_f32(const Tensor& t, const char* what, const char* name) {
  require(t.dtype() == DType::f32, what, std::string(name) + " must be float32");
}

void require_shape(const Tensor& t, const std::vector<std::int64_t>& shape, const char* what,
                   const char* name) {
  Tensor expected = Tensor::zeros(DType::f32, shape);
  require(t.shape() == shape, what,
          std::string(name) + " has shape " + shape_text(t) + ", expected " + shape_text(expected));
}

void require_rank(const Tensor& t, std::size_t rank, const char* what, const char* name) {
  require(t.shape().size() == rank, what,
          std::string(name) + " has shape " + shape_text(t) + ", expected rank " + std::to_string(rank));
}

}  // namespace

std::vector<float> f32_values(const Tensor& t) {
  const Tensor c = t.is_contiguous() ? t : t.contiguous();
  const auto n = static_cast<std::size_t>(c.numel());
  std::vector<float> v(n);
  if (c.dtype() == DType::f32) {
    const float* src = c.storage<float>() + c.offset();
    for (std::size_t i = 0; i < n; ++i) v[i] = src[i];
  } else if (c.dtype() == DType::bf16) {
    const std::uint16_t* src = c.storage<std::uint16_t>() + c.offset();
    for (std::size_t i = 0; i < n; ++i) v[i] = bf16_to_float(src[i]);
  } else {
    throw InputError("model rows: float64 operands are not supported");
  }
  return v;
}

F32Output::F32Output(std::vector<std::int64_t> shape)
    : tensor(Tensor::zeros(DType::f32, std::move(shape))), data(tensor.storage<float>()) {}

RowDims check_rms(const Tensor& x, const Tensor* w, const Tensor* dy, const char* what) {
  require(!x.shape().empty() && x.shape().back() >= 1, what, "x needs a last dim of at least 1");
  require_f32(x, what, "x");
  const RowDims d{x.numel() / x.shape().back(), x.shape().back()};
  if (w) {
    require_f32(*w, what, "w");
    require_shape(*w, {d.C}, what, "w");
  }
  if (dy) {
    require_f32(*dy, what, "dy");
    require_shape(*dy, x.shape(), what, "dy");
  }
  return d;
}

RopeDims check_rope(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims,
                    const char* what) {
  require_rank(x, 4, what, "x");
  require_f32(x, what, "x");
  const RopeDims d{x.dim(0), x.dim(1), x.dim(2), x.dim(3), rope_dims};
  require(rope_dims >= 0 && rope_dims % 2 == 0 && rope_dims <= d.Dh, what,
          "rope_dims must be even and in [0, head dim], got " + std::to_string(rope_dims));
  require_f32(cos, what, "cos");
  require_f32(sin, what, "sin");
  require_shape(cos, {d.T, d.R / 2}, what, "cos");
  require_shape(sin, {d.T, d.R / 2}, what, "sin");
  return d;
}

SwigluGateDims check_swiglu_gate_backward(const Tensor& ag, const Tensor& du) {
  const char* what = "swiglu_gate_backward";
  require_rank(ag, 2, what, "ag");
  require_f32(ag, what, "ag");
  require_f32(du, what, "du");
  require(ag.dim(1) >= 2 && ag.dim(1) % 2 == 0, what, "ag needs an even, nonzero number of columns [a | g]");
  const SwigluGateDims d{ag.dim(0), ag.dim(1) / 2};
  require_shape(du, {d.M, d.F}, what, "du");
  return d;
}

}  // namespace parity::subjects::rlkernels::model
