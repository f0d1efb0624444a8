#pragma once
// parity export REPRO --out FILE.pt: a reproducer's input tensors as a file PyTorch loads.
#include <string>

namespace parity::cli {

struct ExportOptions {
  std::string reproducer;  // a parity.repro/1 file
  std::string out;         // the .pt file to write
};

// Writes the tensors of the reproducer's case (its family's gen::Family::case_tensors) to `out`
// as subjects::torch_impl::pt_bytes (torch.load(out) gives a dict of tensors). Throws InputError
// naming the file or field (a bad reproducer, a family without tensors) or the flag (no input,
// no --out, an unwritable --out). Returns 0.
int run_export(const ExportOptions& options);

}  // namespace parity::cli
