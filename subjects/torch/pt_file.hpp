#pragma once
// Tensors as a file PyTorch loads: `torch.load(path)` in Python returns a dict from each name
// to a tensor. Plain parity types here; LibTorch stays inside pt_file.cpp.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/tensor.hpp>

namespace parity::subjects::torch_impl {

// The file's bytes: torch.save's zip format (LibTorch's Pickler and PyTorchStreamWriter) of a dict, in the order
// given, from each name to a contiguous CPU tensor holding the exact bits of the logical elements
// of its parity Tensor (bf16, f32, f64 keep their dtype). Names must be distinct.
std::vector<char> pt_bytes(const std::vector<std::pair<std::string, Tensor>>& tensors);

}  // namespace parity::subjects::torch_impl
