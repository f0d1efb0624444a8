#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace parity {

// Element types of tensors that cross a subject boundary.
enum class DType { f32, bf16, f64 };

std::size_t dtype_size(DType t);
std::string_view dtype_name(DType t);
// Parses "f32" | "bf16" | "f64"; throws InputError naming the text otherwise.
DType parse_dtype(std::string_view name);

}  // namespace parity
