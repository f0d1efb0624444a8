#include <parity/subjects/torch/convert.hpp>

#include <ATen/ops/empty.h>

#include <cstring>
#include <string>

#include <parity/core/error.hpp>

namespace parity::subjects::torch_impl {
namespace {

at::ScalarType aten_dtype(DType t) {
  switch (t) {
    case DType::bf16:
      return at::kBFloat16;
    case DType::f32:
      return at::kFloat;
    case DType::f64:
      return at::kDouble;
    case DType::f16:
      return at::kHalf;
  }
  throw InputError("to_aten: unknown dtype");
}

DType parity_dtype(at::ScalarType t) {
  switch (t) {
    case at::kBFloat16:
      return DType::bf16;
    case at::kFloat:
      return DType::f32;
    case at::kDouble:
      return DType::f64;
    case at::kHalf:
      return DType::f16;
    default:
      throw InputError(std::string("from_aten: unsupported dtype ") + c10::toString(t));
  }
}

}  // namespace

at::Tensor to_aten(const Tensor& t) {
  at::Tensor storage = at::empty({t.storage_elements()}, at::TensorOptions().dtype(aten_dtype(t.dtype())));
  const auto bytes = t.storage_bytes();
  if (!bytes.empty()) std::memcpy(storage.data_ptr(), bytes.data(), bytes.size());
  return storage.as_strided(t.shape(), t.strides(), t.offset());
}

Tensor from_aten(const at::Tensor& t) {
  const at::Tensor host = t.cpu().contiguous();
  Tensor out = Tensor::zeros(parity_dtype(host.scalar_type()), host.sizes().vec());
  const auto bytes = out.storage_bytes();
  if (!bytes.empty()) std::memcpy(bytes.data(), host.data_ptr(), bytes.size());
  return out;
}

}  // namespace parity::subjects::torch_impl
