#pragma once
// The flags that make a PyTorch operator the subject of `parity check` and `parity replay`
// (ops/torch_op/torch_op.hpp): --torch-op SCHEMA, --library FILE, --torch-arg NAME=VALUE,...,
// --torch-device cpu|cuda and --kernel-op OP. The one place they are read.
#include <optional>

#include <parity/cli/args.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::cli {

// The spec the flags give, or nullopt without --torch-op. Throws InputError naming the flag for a
// bad value, and for --library, --torch-arg, --torch-device or --kernel-op without --torch-op.
std::optional<ops::TorchOpSpec> torch_op_flags(const Args& args);

}  // namespace parity::cli
