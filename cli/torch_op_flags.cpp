#include <parity/cli/torch_op_flags.hpp>

#include <map>
#include <string>

namespace parity::cli {

std::optional<ops::TorchOpSpec> torch_op_flags(const Args& args) {
  std::map<std::string, std::string> values;
  for (const std::string_view flag : ops::kTorchOpFlags)
    if (const auto value = args.get(std::string(flag))) values.emplace(flag, *value);
  return ops::torch_op_spec_of(values);
}

}  // namespace parity::cli
