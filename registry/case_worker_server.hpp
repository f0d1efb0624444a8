#pragma once
// The worker side of a supervised run (properties/gen/case_worker.hpp): serves Family::check of
// every family this program knows (registry/families.hpp) on file descriptor 3 until the
// supervisor closes it. `parity __worker` and a property test's `<test> --worker` are this
// function; neither is for direct use.
#include <string>
#include <vector>

namespace parity::registry {

// Serves checks; `args` are the flags of the PyTorch operator the supervisor's subjects run, if
// any (--torch-op SCHEMA [--library FILE] [--torch-arg ...] [--torch-device D] [--kernel-op OP]),
// registered with a family (register_torch_op_for_subject) before its first case. Per request: the
// family's verdict, as guarded_verdict counts what the check throws (NotApplicable answered as
// such); after a verdict that ends the worker (core/exception_kind.hpp) it answers and exits at
// once (_exit). The operator is registered only for a subject that runs it.
// Returns the exit status: 0 when the supervisor closed the socket, 2 for bad flags or a request it
// cannot read (after answering {"error": ...}). Dies with the supervisor (PR_SET_PDEATHSIG).
int serve_case_checks(const std::vector<std::string>& args);

}  // namespace parity::registry
