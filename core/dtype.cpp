#include <parity/core/dtype.hpp>

#include <parity/core/error.hpp>

namespace parity {

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f32:
      return 4;
    case DType::bf16:
      return 2;
    case DType::f64:
      return 8;
    case DType::f16:
      return 2;
  }
  return 0;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f32:
      return "f32";
    case DType::bf16:
      return "bf16";
    case DType::f64:
      return "f64";
    case DType::f16:
      return "f16";
  }
  return "?";
}

DType parse_dtype(std::string_view name) {
  if (name == "f32") return DType::f32;
  if (name == "bf16") return DType::bf16;
  if (name == "f64") return DType::f64;
  if (name == "f16") return DType::f16;
  throw InputError("unknown dtype '" + std::string(name) + "' (expected f32, bf16, f64 or f16)");
}

}  // namespace parity
