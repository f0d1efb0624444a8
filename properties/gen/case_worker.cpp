#include <parity/properties/gen/case_worker.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/exception_kind.hpp>

extern char** environ;

namespace parity::gen {
namespace {

// The descriptor a worker serves on (registry/case_worker_server.hpp).
constexpr int kWorkerFd = 3;
// How long a worker whose socket was closed may take to exit before it is killed.
constexpr std::int64_t kExitGraceMs = 2000;

std::int64_t now_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

std::string describe_command(const std::vector<std::string>& command) {
  std::string out;
  for (const auto& word : command) out += (out.empty() ? "" : " ") + word;
  return out;
}

// "SIGSEGV (Segmentation fault)".
std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  const char* words = ::strsignal(sig);
  return (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig)) +
         (words ? " (" + std::string(words) + ")" : "");
}

// Sends all of `text`; false when the worker closed its end.
bool send_all(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::uint64_t default_case_timeout() {
  return env_decimal("PARITY_TIMEOUT", 1, kMaxCaseTimeoutSeconds).value_or(kDefaultCaseTimeoutSeconds);
}

std::uint64_t worker_start_deadline(const WorkerOptions& options) {
  return std::max<std::uint64_t>(options.timeout_seconds, kDefaultCaseTimeoutSeconds);
}

std::string this_program() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

CaseWorker::CaseWorker(WorkerOptions options) : options_(std::move(options)) {
  if (options_.command.empty()) throw WorkerError("a worker needs a command that starts it");
}

CaseWorker::~CaseWorker() { stop(); }

void CaseWorker::start() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw WorkerError(std::string("cannot make the worker's socket: ") + std::strerror(errno));
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw WorkerError(std::string("cannot make the worker's output pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, fds[1], kWorkerFd);  // dup2 clears close-on-exec
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  std::vector<char*> argv;
  for (auto& word : options_.command) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    ::close(out[0]);
    throw WorkerError("cannot start the worker " + describe_command(options_.command) + ": " + std::strerror(spawned));
  }
  pid_ = pid;
  socket_ = fds[0];
  output_ = out[0];
  buffered_.clear();
  recent_output_.clear();
  std::string line;
  bool timed_out = false;
  const std::uint64_t wait_s = worker_start_deadline(options_);
  if (!read_line(line, now_ms() + static_cast<std::int64_t>(wait_s) * 1000, timed_out)) {
    bool killed = false;
    const int status = kill_and_reap(killed);
    throw WorkerError(
        "the worker " + describe_command(options_.command) +
        (timed_out ? " did not say it was ready within " + std::to_string(wait_s) + " s (the larger of " +
                         options_.timeout_setting + " and " + std::to_string(kDefaultCaseTimeoutSeconds) + " s)"
         : WIFEXITED(status) ? " exited with status " + std::to_string(WEXITSTATUS(status)) + " before serving"
                             : " ended by " + signal_text(WTERMSIG(status)) + " before serving") +
        " (its standard error above says why)");
  }
  const auto ready = nlohmann::json::parse(line, nullptr, false);
  if (!ready.is_object() || !ready.contains("ready")) {
    kill_and_reap();
    throw WorkerError("the worker " + describe_command(options_.command) + " did not start: " +
                      (ready.is_object() && ready.contains("error") && ready["error"].is_string()
                           ? ready["error"].get<std::string>()
                           : "it said '" + line + "'"));
  }
  if (options_.memory_limit_bytes > 0) limit_memory();  // before any case: none was sent yet
}

void CaseWorker::limit_memory() {
  // What it holds once started (VmData: its data, heap and private writable mappings, which
  // RLIMIT_DATA counts), plus the limit.
  std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
  std::uint64_t held_kib = 0;
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmData:")) held_kib = std::strtoull(line.c_str() + 7, nullptr, 10);
  rlimit limit{};
  if (held_kib == 0 || ::prlimit(pid_, RLIMIT_DATA, nullptr, &limit) != 0) {
    kill_and_reap();
    throw WorkerError("--memory-limit: cannot read the worker's memory (/proc/" + std::to_string(pid_) + "/status)");
  }
  const std::uint64_t wanted = held_kib * 1024 + options_.memory_limit_bytes;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min<rlim_t>(wanted, limit.rlim_max);
  if (::prlimit(pid_, RLIMIT_DATA, &limit, nullptr) != 0) {
    const std::string why = std::strerror(errno);
    kill_and_reap();
    throw WorkerError("--memory-limit: cannot limit the worker's memory: prlimit: " + why);
  }
}

void CaseWorker::forget() {
  drain_output();
  for (int* fd : {&socket_, &output_})
    if (*fd >= 0) ::close(std::exchange(*fd, -1));
  pid_ = -1;
}

void CaseWorker::stop() {
  if (pid_ < 0) return;
  ::close(std::exchange(socket_, -1));  // the worker reads the end of its requests and exits
  const std::int64_t deadline = now_ms() + kExitGraceMs;
  while (!ended_status()) {
    if (now_ms() > deadline) {
      int status = 0;
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    wait_for_output(1);  // an exiting worker may write more than the pipe holds
  }
  forget();
}

int CaseWorker::kill_and_reap(bool& killed) {
  int status = 0;
  const std::optional<int> ended = ended_status();
  killed = !ended;
  if (ended) {
    status = *ended;
  } else {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  forget();
  return status;
}

int CaseWorker::kill_and_reap() {
  bool killed = false;
  return kill_and_reap(killed);
}

std::optional<int> CaseWorker::ended_status() {
  int status = 0;
  pid_t reaped = 0;
  while ((reaped = ::waitpid(pid_, &status, WNOHANG)) < 0 && errno == EINTR) {
  }
  if (reaped != pid_) return std::nullopt;
  return status;
}

bool CaseWorker::read_line(std::string& line, std::int64_t deadline_ms, bool& timed_out) {
  timed_out = false;
  for (;;) {
    if (const auto end = buffered_.find('\n'); end != std::string::npos) {
      line = buffered_.substr(0, end);
      buffered_.erase(0, end + 1);
      return true;
    }
    const std::int64_t left = deadline_ms - now_ms();
    if (left <= 0) {
      timed_out = true;
      return false;
    }
    pollfd p[2] = {{socket_, POLLIN, 0}, {output_, POLLIN, 0}};
    const int ready = ::poll(p, output_ >= 0 ? 2 : 1, static_cast<int>(std::min<std::int64_t>(left, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline is checked above
    if (output_ >= 0 && (p[1].revents & (POLLIN | POLLHUP))) drain_output();
    if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char chunk[65536];
    const ssize_t n = ::read(socket_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // the worker closed its end: it ended
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

void CaseWorker::drain_output() {
  // At most kDrainReads reads a call: a worker that prints without end must not keep the caller
  // from its deadline.
  for (int reads = 0; output_ >= 0 && reads < kDrainReads; ++reads) {
    pollfd p{output_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
    char chunk[4096];
    const ssize_t n = ::read(output_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // every writer closed it
      ::close(std::exchange(output_, -1));
      return;
    }
    std::size_t written = 0;  // passed on as it comes: the user sees it live
    while (written < static_cast<std::size_t>(n)) {
      const ssize_t w = ::write(STDERR_FILENO, chunk + written, static_cast<std::size_t>(n) - written);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      written += static_cast<std::size_t>(w);
    }
    recent_output_.append(chunk, static_cast<std::size_t>(n));
    if (recent_output_.size() > kRecentOutputBytes) recent_output_.erase(0, recent_output_.size() - kRecentOutputBytes);
  }
}

void CaseWorker::wait_for_output(int ms) {
  if (output_ < 0) {
    ::usleep(static_cast<useconds_t>(ms) * 1000);
    return;
  }
  pollfd p{output_, POLLIN, 0};
  if (::poll(&p, 1, ms) > 0) drain_output();
}

std::string CaseWorker::last_words() const {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < recent_output_.size()) {
    std::size_t end = recent_output_.find('\n', begin);
    if (end == std::string::npos) end = recent_output_.size();
    std::string line = recent_output_.substr(begin, end - begin);
    for (char& ch : line)
      if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
    if (line.find_first_not_of(' ') != std::string::npos) lines.push_back(line);
    begin = end + 1;
  }
  std::string out;
  for (std::size_t i = lines.size() > kLastWordsLines ? lines.size() - kLastWordsLines : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  if (out.size() > kLastWordsChars) out = "..." + out.substr(out.size() - kLastWordsChars);
  if (out.empty()) return "";
  // Valid UTF-8 for the JSON it goes into: a cut character or a stray byte becomes U+FFFD.
  const std::string quoted = nlohmann::json(out).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "; its last output: " + nlohmann::json::parse(quoted).get<std::string>();
}

Verdict CaseWorker::verdict_of_end(const std::string& property, int status) const {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGABRT) return Verdict::fail(property, "aborted: " + signal_text(sig), FailureKind::aborted);
    if (sig == SIGKILL)
      return Verdict::fail(property,
                           "out of memory: killed by SIGKILL, which parity did not send (the kernel's out-of-memory "
                           "killer sends it; --memory-limit makes an allocation fail first)",
                           FailureKind::out_of_memory);
    return Verdict::fail(property, "crashed: " + signal_text(sig), FailureKind::crashed);
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return Verdict::fail(property,
                       "crashed: the process exited with status " + std::to_string(code) + " while it ran the case",
                       FailureKind::crashed);
}

Verdict CaseWorker::check(const std::string& subject, const std::string& property, const Case& c) {
  const std::string request =
      nlohmann::json{{"subject", subject}, {"property", property}, {"case", case_to_json(c)}}.dump() + "\n";
  if (pid_ < 0) start();
  drain_output();
  recent_output_.clear();  // what the worker writes from here on is this case's
  if (!send_all(socket_, request)) {
    // It ended between cases (after answering the last one), so it never saw this one: once more
    // on a fresh worker.
    kill_and_reap();
    start();
    if (!send_all(socket_, request))
      throw WorkerError("the worker " + describe_command(options_.command) + " closed its socket before a request");
  }
  std::string line;
  bool timed_out = false;
  if (!read_line(line, now_ms() + static_cast<std::int64_t>(options_.timeout_seconds) * 1000, timed_out)) {
    // It closed the socket (it ended), or the deadline passed: it may have ended even so, if a
    // process it started holds the socket open. Given a grace to exit, it is killed.
    std::optional<int> ended = ended_status();
    const std::int64_t grace_end = now_ms() + (timed_out ? 0 : kExitGraceMs);
    while (!ended && now_ms() < grace_end) {
      wait_for_output(1);
      ended = ended_status();
    }
    bool killed = false;
    const int status = ended ? *ended : kill_and_reap(killed);
    if (ended) forget();
    Verdict v = !killed ? verdict_of_end(property, status)
                : timed_out
                    ? Verdict::fail(property,
                                    "hung: no result after " + std::to_string(options_.timeout_seconds) + " s (" +
                                        options_.timeout_setting + "); the worker was killed",
                                    FailureKind::hung)
                    : Verdict::fail(property, "crashed: the worker closed its connection mid-case and did not exit",
                                    FailureKind::crashed);
    v.detail += last_words();
    return v;
  }
  const auto answer = nlohmann::json::parse(line, nullptr, false);
  if (answer.is_object() && answer.contains("verdict")) {
    Verdict v;
    try {
      v = verdict_from_json(answer["verdict"], "the worker's verdict");
    } catch (const InputError& e) {
      kill_and_reap();
      throw WorkerError(e.what());
    }
    if (v.fails() && ends_the_worker(v.kind)) stop();  // it exits after such an answer
    return v;
  }
  if (answer.is_object() && answer.contains("not_applicable") && answer["not_applicable"].is_string())
    throw NotApplicable(answer["not_applicable"].get<std::string>());
  kill_and_reap();
  throw WorkerError("the worker " + describe_command(options_.command) + " answered a request with '" + line + "'");
}

}  // namespace parity::gen
