#include <parity/ops/torch_op/operator_channel.hpp>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <torch/csrc/jit/frontend/function_schema_parser.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <parity/core/error.hpp>

namespace parity::ops {
namespace {

// A message longer than this is refused: no operator's arguments come near it.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 34;

WorkerError channel_error(const std::string& what) { return WorkerError("--torch-channel: " + what); }

}  // namespace

std::shared_ptr<OperatorChannel> OperatorChannel::on(int fd) {
  static std::mutex m;
  static std::map<int, std::shared_ptr<OperatorChannel>> channels;
  std::lock_guard lock(m);
  auto& channel = channels[fd];
  if (!channel) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
      throw InputError("--torch-channel: descriptor " + std::to_string(fd) +
                       " is no open socket (parity.check passes one; see README, \"From Python\")");
    channel = std::make_shared<OperatorChannel>(fd);
  }
  return channel;
}

OperatorChannel::OperatorChannel(int fd) : fd_(fd) {}

void OperatorChannel::send(char kind, const std::vector<char>& payload) {
  std::vector<char> message(8 + 1 + payload.size());
  std::uint64_t n = 1 + payload.size();
  for (int i = 0; i < 8; ++i) message[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  message[8] = kind;
  std::memcpy(message.data() + 9, payload.data(), payload.size());
  for (std::size_t sent = 0; sent < message.size();) {
    const ssize_t k = ::send(fd_, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw channel_error(std::string("sending to the operator's process failed: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(k);
  }
}

std::pair<char, std::vector<char>> OperatorChannel::receive() {
  const auto read_exactly = [&](char* into, std::size_t n) {
    for (std::size_t got = 0; got < n;) {
      const ssize_t k = ::recv(fd_, into + got, n - got, 0);
      if (k < 0 && errno == EINTR) continue;
      if (k == 0) throw channel_error("the operator's process closed the channel");
      if (k < 0)
        throw channel_error(std::string("reading from the operator's process failed: ") + std::strerror(errno));
      got += static_cast<std::size_t>(k);
    }
  };
  unsigned char header[9];  // the length, then the kind
  read_exactly(reinterpret_cast<char*>(header), 9);
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= std::uint64_t{header[i]} << (8 * i);
  if (n == 0 || n > kMaxMessageBytes) throw channel_error("a message of " + std::to_string(n) + " bytes came back");
  std::vector<char> body(n - 1);
  read_exactly(body.data(), body.size());
  return {static_cast<char>(header[8]), std::move(body)};
}

const c10::FunctionSchema& OperatorChannel::schema() {
  if (!schema_) {
    send('S', {});
    auto [kind, text] = receive();
    if (kind != 'S')
      throw channel_error("asked for the operator's schema, the other end answered '" + std::string(1, kind) + "'");
    const std::string schema(text.begin(), text.end());
    try {
      schema_ = std::make_unique<c10::FunctionSchema>(torch::jit::parseSchema(schema));
    } catch (const std::exception& e) {
      throw InputError("--torch-channel: the operator's schema '" + schema + "' does not parse: " + e.what());
    }
  }
  return *schema_;
}

void OperatorChannel::call(torch::jit::Stack& stack) {
  send('C', torch::jit::pickle_save(c10::ivalue::Tuple::create(std::vector<c10::IValue>(stack.begin(), stack.end()))));
  auto [kind, payload] = receive();
  if (kind == 'E') throw OperatorRaised(std::string(payload.begin(), payload.end()));
  if (kind != 'R') throw channel_error("the operator's process answered a call with '" + std::string(1, kind) + "'");
  c10::IValue result;
  try {
    result = torch::jit::pickle_load(payload);
  } catch (const std::exception& e) {
    throw channel_error(std::string("the operator's result does not unpickle: ") + e.what());
  }
  const std::size_t returns = schema().returns().size();
  stack.clear();
  if (returns == 1) {
    stack.push_back(std::move(result));
    return;
  }
  if (result.isTuple())
    for (const auto& element : result.toTupleRef().elements()) stack.push_back(element);
  if (stack.size() != returns)
    throw channel_error("the operator's process answered " +
                        (result.isTuple() ? std::to_string(stack.size()) + " values" : std::string("one value")) +
                        " where its schema has " + std::to_string(returns) + " returns");
}

}  // namespace parity::ops
