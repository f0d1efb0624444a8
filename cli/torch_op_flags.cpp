#include <parity/cli/torch_op_flags.hpp>

#include <parity/core/error.hpp>

namespace parity::cli {

std::optional<ops::TorchOpSpec> torch_op_flags(const Args& args) {
  if (!args.has("--torch-op")) {
    for (const char* flag : {"--library", "--torch-arg", "--torch-device", "--kernel-op", "--torch-returns"})
      if (args.has(flag)) throw InputError(std::string(flag) + " needs --torch-op SCHEMA (the operator it is about)");
    return std::nullopt;
  }
  return ops::torch_op_spec(*args.get("--torch-op"), args.get("--library").value_or(""),
                            args.get("--torch-arg").value_or(""), args.get("--torch-device").value_or("cpu"),
                            args.get("--kernel-op").value_or(""), args.get("--torch-returns").value_or(""));
}

}  // namespace parity::cli
