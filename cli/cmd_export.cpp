// parity export: a reproducer's tensors for a notebook (torch.load).
#include <parity/cli/cmd_export.hpp>

#include <iostream>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/registry/families.hpp>
#include <parity/subjects/torch/pt_file.hpp>

namespace parity::cli {

int run_export(const ExportOptions& options) {
  if (options.reproducer.empty()) throw InputError("export needs one REPRO (a reproducer file)");
  if (options.out.empty()) throw InputError("--out: required (the .pt file to write)");
  check_output_path(options.out, "--out");
  const Reproducer r = read_reproducer(options.reproducer);
  std::vector<std::pair<std::string, Tensor>> tensors;
  try {
    tensors = registry::find_family(r.failing_case.family).case_tensors(r.failing_case);
  } catch (const InputError& e) {
    throw InputError(options.reproducer + ": " + e.what());
  }
  const std::vector<char> bytes = subjects::torch_impl::pt_bytes(tensors);
  write_text_atomically(std::string(bytes.begin(), bytes.end()), options.out);
  std::cout << "export: " << options.out << ":";
  for (const auto& [name, t] : tensors) std::cout << " " << name;
  std::cout << " (torch.load(\"" << options.out << "\") gives a dict of these tensors)\n";
  return 0;
}

int cmd_export(const Args& args) {
  if (args.positional().size() > 1) throw InputError("export takes one REPRO");
  return run_export({args.positional().empty() ? "" : args.positional()[0], args.get("--out").value_or("")});
}

}  // namespace parity::cli
