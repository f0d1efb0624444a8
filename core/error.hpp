#pragma once
#include <stdexcept>
#include <string>

#include <parity/core/escape.hpp>

namespace parity {

// A usage or input error: a bad flag, a malformed file, an impossible shape. The message is
// one line that names the flag, file or field; text in it that came from a user or a file is
// escaped here (core/escape.hpp), so no newline, terminal escape or NUL of an input reaches a
// terminal. The `parity` command exits 2 on it.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(escaped(message)) {}
};

// A property that does not apply to the subject asked for: it needs a capability the subject
// lacks, a host twin it has not, or it pairs a self-check of parity's oracles with a real
// subject (or the reverse). A usage error (exit 2), never the subject's failure: the runners
// (properties/gen/guarded_verdict.hpp) let it through instead of counting it as `threw`.
class NotApplicable : public InputError {
 public:
  using InputError::InputError;
};

// parity could not start, or talk to, the process that runs a subject's cases or calls: its worker
// (properties/gen/case_worker.hpp), or the Python session at --torch-channel's other end
// (ops/torch_op/operator_channel.hpp). A fault of parity or of the machine (no process could be
// spawned, the worker's program failed before serving, the channel closed), never a verdict on the
// subject. The runners
// let it through; the `parity` command exits 2 on it, naming what failed.
class WorkerError : public std::runtime_error {
 public:
  explicit WorkerError(const std::string& message) : std::runtime_error(escaped(message)) {}
};

}  // namespace parity
