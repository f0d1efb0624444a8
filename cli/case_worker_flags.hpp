#pragma once
// Where a command's cases run (properties/gen/case_worker.hpp): in a supervised worker, `parity
// __worker` started fresh with the PyTorch operator's flags, unless --in-process; --timeout (else
// $PARITY_TIMEOUT) is the per-case deadline, --memory-limit what a worker may allocate in GiB.
#include <memory>
#include <optional>
#include <vector>

#include <parity/cli/args.hpp>
#include <parity/cli/command_spec.hpp>
#include <parity/ops/torch_op/torch_op.hpp>
#include <parity/properties/gen/case_worker.hpp>

namespace parity::cli {

// The name of the hidden command that serves a supervisor's checks (registry/case_worker_server.hpp).
inline constexpr const char* kWorkerCommand = "__worker";

// `flags` and --timeout, --memory-limit and --in-process.
std::vector<FlagSpec> with_case_worker(std::vector<FlagSpec> flags);

// The worker the command's cases run in, or null under --in-process. Throws InputError naming
// --timeout, --memory-limit or PARITY_TIMEOUT for a bad value, and for --timeout or --memory-limit
// given with --in-process (no worker to apply them to).
std::shared_ptr<gen::CaseWorker> case_worker(const Args& args, const std::optional<ops::TorchOpSpec>& torch_op);

}  // namespace parity::cli
