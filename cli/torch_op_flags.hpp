#pragma once
// The flags that make a PyTorch operator the subject of parity's commands (ops/torch_op/torch_op.hpp's
// kTorchOpFlags: --torch-op SCHEMA, --library FILE, --torch-arg NAME=VALUE,..., --torch-device
// cpu|cuda, --kernel-op OP, --torch-returns OUTPUT|_,...), read from the command line.
#include <optional>

#include <parity/cli/args.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::cli {

// The spec the flags give, or nullopt without --torch-op (ops::torch_op_spec_of: InputError naming
// the flag for a bad value, or for one of them without --torch-op; and --torch-channel without
// --in-process).
std::optional<ops::TorchOpSpec> torch_op_flags(const Args& args);

}  // namespace parity::cli
