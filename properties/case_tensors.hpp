#pragma once
// The tensors of a Case by name (gen::Family::case_tensors, `parity export`), and the scalars
// every family's export holds.
#include <string>
#include <utility>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/tensor.hpp>

namespace parity::properties {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// A 0-dimensional tensor of `dtype` holding v rounded to it.
Tensor scalar_tensor(DType dtype, double v);

}  // namespace parity::properties
