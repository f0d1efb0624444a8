#include <parity/registry/case_worker_server.hpp>

#include <cerrno>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/exception_kind.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/registry/families.hpp>
#include <parity/registry/torch_op_registration.hpp>

namespace parity::registry {
namespace {

constexpr int kSocket = 3;  // properties/gen/case_worker.cpp's kWorkerFd

bool write_line(const nlohmann::json& j) {
  // A subject's message need not be UTF-8: replaced, never a throw that would end the worker.
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::write(kSocket, text.data() + sent, text.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// The next request line; false at the end of the requests.
bool read_line(std::string& buffered, std::string& line) {
  for (;;) {
    if (const auto end = buffered.find('\n'); end != std::string::npos) {
      line = buffered.substr(0, end);
      buffered.erase(0, end + 1);
      return true;
    }
    char chunk[65536];
    const ssize_t n = ::read(kSocket, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffered.append(chunk, static_cast<std::size_t>(n));
  }
}

std::optional<ops::TorchOpSpec> torch_op_of(const std::vector<std::string>& args) {
  std::map<std::string, std::string> values;
  for (std::size_t i = 0; i < args.size(); i += 2) {
    if (!ops::is_torch_op_flag(args[i]))
      throw InputError("the worker takes only the flags of a PyTorch operator, not '" + args[i] + "'");
    if (i + 1 == args.size()) throw InputError(args[i] + " needs a value");
    values[args[i]] = args[i + 1];
  }
  return ops::torch_op_spec_of(values);
}

// One request's answer; `ends` is set when the worker must exit after it.
nlohmann::json answer(const nlohmann::json& request, const std::optional<ops::TorchOpSpec>& torch_op,
                      std::set<std::pair<std::string, std::string>>& registered, bool& ends) {
  const std::string subject = request.at("subject").get<std::string>();
  const std::string property = request.at("property").get<std::string>();
  const Case c = case_from_json(request.at("case"));
  // The operator is registered where the subject runs it (itself in an op family,
  // runtime-host+OP=SCHEMA in the model), as the supervisor registered it; a subject that does not
  // run it (a replay's --subject of parity's own) needs nothing.
  if (torch_op && subject.find(ops::torch_op_subject_name(*torch_op)) != std::string::npos &&
      registered.insert({c.family, subject}).second)
    register_torch_op_for_subject(c.family, subject, *torch_op);
  const gen::Family& family = find_family(c.family);
  try {
    const Verdict v = family.check(subject, property, c);
    return {{"verdict", verdict_to_json(v)}};
  } catch (const NotApplicable& e) {
    return {{"not_applicable", e.what()}};
  } catch (const std::exception& e) {
    const Verdict v = gen::threw_verdict(property, e);
    ends = ends_the_worker(v.kind);
    return {{"verdict", verdict_to_json(v)}};
  }
}

}  // namespace

int serve_case_checks(const std::vector<std::string>& args) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 0;  // the supervisor already ended
  // A process the subject starts must not hold the socket: its end is how the supervisor sees ours.
  ::fcntl(kSocket, F_SETFD, FD_CLOEXEC);
  // Standard output is a pipe to the supervisor: line-buffered, so what a subject prints before it
  // dies reaches the verdict instead of dying in a buffer.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::optional<ops::TorchOpSpec> torch_op;
  try {
    torch_op = torch_op_of(args);
  } catch (const std::exception& e) {
    write_line({{"error", std::string("parity __worker: ") + e.what()}});
    return 2;
  }
  if (!write_line({{"ready", true}})) return 0;
  std::set<std::pair<std::string, std::string>> registered;
  std::string buffered, line;
  while (read_line(buffered, line)) {
    bool ends = false;
    nlohmann::json reply;
    try {
      reply = answer(nlohmann::json::parse(line), torch_op, registered, ends);
    } catch (const std::exception& e) {  // a request it cannot read or a registration refused
      write_line({{"error", std::string("parity __worker: ") + e.what()}});
      return 2;
    }
    if (!write_line(reply)) return 0;
    // After a device fault or a failed allocation the process is not to be trusted, not even its
    // static destructors or CUDA's teardown: it ends at once.
    if (ends) ::_exit(0);
  }
  return 0;
}

}  // namespace parity::registry
