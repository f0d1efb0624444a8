#include <parity/subjects/rlkernels/model_rows_checks.hpp>

#include <algorithm>
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

LinearDims check_linear(const Tensor& x, const Tensor& W) {
  const char* what = "linear_forward";
  require_rank(x, 2, what, "x");
  require_rank(W, 2, what, "W");
  require_f32(x, what, "x");
  require_f32(W, what, "W");
  const LinearDims d{x.dim(0), W.dim(0), x.dim(1)};
  require_shape(W, {d.N, d.K}, what, "W");
  return d;
}

LinearDims check_linear_backward(const Tensor& dy, const Tensor& W) {
  const char* what = "linear_backward_input";
  require_rank(dy, 2, what, "dy");
  require_rank(W, 2, what, "W");
  require_f32(dy, what, "dy");
  require_f32(W, what, "W");
  const LinearDims d{dy.dim(0), dy.dim(1), W.dim(1)};
  require_shape(W, {d.N, d.K}, what, "W");
  return d;
}

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

SwigluDims check_swiglu(const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2,
                        const Tensor* d_out, const char* what) {
  require_rank(h, 2, what, "h");
  require_rank(W1, 2, what, "W1");
  for (const auto& [t, name] : {std::pair{&h, "h"}, {&W1, "W1"}, {&W3, "W3"}, {&W2, "W2"}})
    require_f32(*t, what, name);
  const SwigluDims d{h.dim(0), h.dim(1), W1.dim(0)};
  require_shape(W1, {d.F, d.D}, what, "W1");
  require_shape(W3, {d.F, d.D}, what, "W3");
  require_shape(W2, {d.D, d.F}, what, "W2");
  if (d_out) {
    require_f32(*d_out, what, "d_out");
    require_shape(*d_out, {d.M, d.D}, what, "d_out");
  }
  return d;
}

Tensor stack_rows(const Tensor& top, const Tensor& bottom) {
  const std::vector<float> a = f32_values(top), b = f32_values(bottom);
  F32Output out({top.dim(0) + bottom.dim(0), top.dim(1)});
  std::copy(a.begin(), a.end(), out.data);
  std::copy(b.begin(), b.end(), out.data + a.size());
  return out.tensor;
}

}  // namespace parity::subjects::rlkernels::model
