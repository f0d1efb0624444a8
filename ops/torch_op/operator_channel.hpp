#pragma once
// A PyTorch operator that lives in another process, called over a connected stream socket
// (--torch-channel FD): how parity.check runs an operator registered in a Python session
// (torch.library, a Triton kernel, a plain function: README, "From Python"), which exists only in
// that interpreter's dispatcher. The Python session starts `parity` with one end of a socket pair
// and answers on the other; parity does everything else (cases, oracles, shrinking, reproducers).
//
// Each message is an 8-byte little-endian length, then that many bytes; the first byte says what
// it is. parity asks, the other end answers, one message each:
//   "S"                                 -> "S" + the operator's schema (str(OpOverload._schema))
//   "C" + the arguments, pickled        -> "R" + the result, pickled (a tensor, or a tuple of them)
//                                          or "E" + the message of what the operator raised
// Pickled is torch::pickle_save's and torch.save's format, which torch.load and
// torch::pickle_load read: tensors keep their dtype, shape, strides, storage offset and device.
//
// LibTorch-facing: included by torch_op_subject.cpp alone.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/core/function_schema.h>
#include <ATen/core/stack.h>

namespace parity::ops {

// What the operator raised at the channel's other end ("E"): the subject's failure, by its message.
class OperatorRaised : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OperatorChannel {
 public:
  // The channel on descriptor `fd` (one per process: every subject made from it shares it). Throws
  // InputError naming --torch-channel where `fd` is no open socket.
  static std::shared_ptr<OperatorChannel> on(int fd);

  explicit OperatorChannel(int fd);
  // The operator's schema, asked for once, the first time it is needed.
  const c10::FunctionSchema& schema();
  // Sends the arguments on `stack` and replaces them with the schema's returns (a result of one
  // return is that return, of several a tuple of them). Throws OperatorRaised with the other
  // end's message where the operator raised; WorkerError (core/error.hpp: no verdict, the run
  // stops) where the channel failed or closed, or the answer is not the schema's returns.
  void call(torch::jit::Stack& stack);

 private:
  void send(char kind, const std::vector<char>& payload);
  // The next message: its kind and the bytes after it.
  std::pair<char, std::vector<char>> receive();

  int fd_;
  std::unique_ptr<c10::FunctionSchema> schema_;
};

}  // namespace parity::ops
