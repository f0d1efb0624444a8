#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace parity {

// Element types of tensors that cross a subject boundary.
// f16 is IEEE binary16 (core/f16.hpp); bf16 is bfloat16 (core/bf16.hpp).
enum class DType { f32, bf16, f64, f16 };

std::size_t dtype_size(DType t);
std::string_view dtype_name(DType t);
// Parses "f32" | "bf16" | "f64" | "f16"; throws InputError naming the text otherwise.
DType parse_dtype(std::string_view name);

}  // namespace parity
