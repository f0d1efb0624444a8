#include <parity/families/model/routines/tensor_ops.hpp>

#include <cstring>

#include <parity/core/error.hpp>

namespace parity::model {

Tensor reshaped(const Tensor& t, std::vector<std::int64_t> shape) {
  const Tensor c = t.contiguous();
  Tensor out = Tensor::zeros(c.dtype(), std::move(shape));
  if (out.numel() != c.numel()) throw InputError("reshaped: element counts differ");
  std::memcpy(out.storage_bytes().data(), c.storage_bytes().data(), c.numel() * dtype_size(c.dtype()));
  return out;
}

Tensor as_token_rows(const Tensor& t, const std::function<Tensor(const Tensor&)>& rows_fn) {
  const std::int64_t C = t.shape().back();
  const Tensor out = rows_fn(reshaped(t, {t.numel() / C, C}));
  std::vector<std::int64_t> shape = t.shape();
  shape.back() = out.dim(1);
  return reshaped(out, shape);
}

Tensor swap_dims_1_2(const Tensor& t) {
  if (t.shape().size() != 4 || t.dtype() != DType::f32) throw InputError("swap_dims_1_2: expects a 4-D float32 tensor");
  const Tensor c = t.contiguous();
  const std::int64_t A = c.dim(0), B = c.dim(1), C = c.dim(2), D = c.dim(3);
  Tensor out = Tensor::zeros(DType::f32, {A, C, B, D});
  const float* src = c.storage<float>();
  float* dst = out.storage<float>();
  for (std::int64_t a = 0; a < A; ++a)
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t k = 0; k < C; ++k)
        std::memcpy(dst + ((a * C + k) * B + b) * D, src + ((a * B + b) * C + k) * D, D * sizeof(float));
  return out;
}

Tensor add_f32(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape() || a.dtype() != DType::f32 || b.dtype() != DType::f32)
    throw InputError("add_f32: operands must be float32 of the same shape");
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  Tensor out = Tensor::zeros(DType::f32, ca.shape());
  const float* x = ca.storage<float>();
  const float* y = cb.storage<float>();
  float* z = out.storage<float>();
  for (std::int64_t i = 0; i < ca.numel(); ++i) z[i] = x[i] + y[i];
  return out;
}

}  // namespace parity::model
