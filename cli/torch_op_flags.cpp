#include <parity/cli/torch_op_flags.hpp>

#include <map>
#include <string>

#include <parity/core/error.hpp>

namespace parity::cli {

std::optional<ops::TorchOpSpec> torch_op_flags(const Args& args) {
  std::map<std::string, std::string> values;
  for (const std::string_view flag : ops::kTorchOpFlags)
    if (const auto value = args.get(std::string(flag))) values.emplace(flag, *value);
  auto spec = ops::torch_op_spec_of(values);
  // Checked before anything talks on the socket: a worker process could not (case_worker_flags.hpp).
  if (spec && !spec->channel.empty() && !args.has("--in-process"))
    throw InputError(
        "--torch-channel: the operator answers on this process's socket, which a worker does not "
        "have: give --in-process");
  return spec;
}

}  // namespace parity::cli
