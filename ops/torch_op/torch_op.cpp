#include <parity/ops/torch_op/torch_op.hpp>

#include <algorithm>
#include <utility>

#include <parity/core/error.hpp>

namespace parity::ops {

bool is_torch_op_flag(std::string_view flag) {
  return std::find(kTorchOpFlags.begin(), kTorchOpFlags.end(), flag) != kTorchOpFlags.end();
}

std::optional<TorchOpSpec> torch_op_spec_of(const std::map<std::string, std::string>& values) {
  for (const auto& [flag, value] : values)
    if (!is_torch_op_flag(flag)) throw InputError("'" + flag + "' is no flag of a PyTorch operator");
  const auto value = [&](const char* flag, std::string otherwise = "") {
    const auto it = values.find(flag);
    return it == values.end() ? otherwise : it->second;
  };
  if (!values.contains("--torch-op")) {
    for (const std::string_view flag : kTorchOpFlags)  // the first given, in the flags' own order
      if (values.contains(std::string(flag)))
        throw InputError(std::string(flag) + " needs --torch-op SCHEMA (the operator it is about)");
    return std::nullopt;
  }
  const std::string returns = value("--torch-returns"), args = value("--torch-arg"),
                    device = value("--torch-device", "cpu");
  TorchOpSpec spec{.schema = value("--torch-op"),
                   .library = value("--library"),
                   .device = device,
                   .kernel_op = value("--kernel-op"),
                   .channel = value("--torch-channel")};
  if (!spec.channel.empty()) {
    if (spec.channel.size() > 6 || spec.channel.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("--torch-channel: '" + spec.channel + "' is not a file descriptor (e.g. 3)");
    if (!spec.library.empty())
      throw InputError(
          "--torch-channel: the operator lives in the process at the channel's other end; "
          "--library loads one into this process");
  }
  for (std::size_t begin = 0; !returns.empty() && begin <= returns.size();) {
    const std::size_t end = std::min(returns.find(',', begin), returns.size());
    const std::string name = returns.substr(begin, end - begin);
    if (name.empty()) throw InputError("--torch-returns: '" + returns + "' has an empty name (OUTPUT or _ per return)");
    spec.returns.push_back(name);
    begin = end + 1;
  }
  if (device != "cpu" && device != "cuda") throw InputError("--torch-device: '" + device + "' is neither cpu nor cuda");
  std::size_t begin = 0;
  while (begin < args.size()) {
    // The next comma outside brackets ends the pair: normalized_shape=[H,D] is one.
    std::size_t end = begin;
    for (int depth = 0; end < args.size() && (args[end] != ',' || depth > 0); ++end)
      depth += args[end] == '[' ? 1 : args[end] == ']' ? -1 : 0;
    const std::string pair = args.substr(begin, end - begin);
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
      throw InputError("--torch-arg: '" + pair +
                       "' is not NAME=VALUE (DECLARED=ARGUMENT: x=input; ARGUMENT=VALUE: dim=-1)");
    if (!spec.args.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second)
      throw InputError("--torch-arg: " + pair.substr(0, eq) + " is given twice");
    begin = end + 1;
  }
  return spec;
}

std::string torch_op_subject_name(const TorchOpSpec& spec) {
  return spec.device == "cuda" ? spec.schema + "@cuda" : spec.schema;
}

std::vector<std::string> torch_op_flag_args(const TorchOpSpec& spec) {
  std::vector<std::string> out = {"--torch-op", spec.schema};
  if (!spec.library.empty()) out.insert(out.end(), {"--library", spec.library});
  std::string args;
  for (const auto& [declared, argument] : spec.args) args += (args.empty() ? "" : ",") + declared + "=" + argument;
  if (!args.empty()) out.insert(out.end(), {"--torch-arg", args});
  if (spec.device != "cpu") out.insert(out.end(), {"--torch-device", spec.device});
  if (!spec.kernel_op.empty()) out.insert(out.end(), {"--kernel-op", spec.kernel_op});
  std::string returns;
  for (const auto& r : spec.returns) returns += (returns.empty() ? "" : ",") + r;
  if (!returns.empty()) out.insert(out.end(), {"--torch-returns", returns});
  return out;
}

std::string torch_op_flag_words(const TorchOpSpec& spec) {
  const auto word = [](const std::string& v) {
    if (!v.empty() && v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,@+-") ==
                          std::string::npos)
      return v;
    std::string q = "'";
    for (const char ch : v) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  std::string words;
  for (const auto& arg : torch_op_flag_args(spec)) words += " " + word(arg);
  return words;
}

}  // namespace parity::ops
