#pragma once
// A supervised worker process that runs a family's checks of Cases, so that a subject that
// crashes, aborts, hangs, runs out of memory or loses its CUDA context ends a worker, never the
// run: the case it was given is known before the call, and the worker's death is that case's
// verdict, shrunk and written as a reproducer like any other failure (run_property.hpp).
//
// The worker is a program started fresh (posix_spawn, never a fork of a process whose CUDA or
// LibTorch threads are up) that serves Family::check on file descriptor 3, a Unix socket: parity's
// own `parity __worker` and a property test's `<test> --worker` (registry/case_worker_server.hpp).
// Its standard output and error go through the supervisor to the supervisor's standard error, so a
// kernel's prints never reach a result written to stdout, and the last lines a worker wrote while
// it ran a case are in that case's verdict when it dies or hangs (an assert's message, LibTorch's
// "terminate called after ..."). One worker serves case after case; it is replaced after any failure
// that ends it (core/exception_kind.hpp's ends_the_worker) and started again on the next check.
//
// Protocol (one JSON object per line): the worker first says {"ready": true}; then per request
// {"subject", "property", "case"} it answers {"verdict": ...} (core/verdict.hpp's JSON) or
// {"not_applicable": why}; {"error": what} ends it for a request it cannot read.
#include <sys/types.h>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>

namespace parity::gen {

// The per-case deadline when neither --timeout nor $PARITY_TIMEOUT says, in seconds: generous
// for the largest default case of any family on a slow machine (an MPFR oracle at the op's work
// cap takes seconds), short enough that a hang is reported within minutes.
inline constexpr std::uint64_t kDefaultCaseTimeoutSeconds = 60;
// The largest --timeout / $PARITY_TIMEOUT: one day.
inline constexpr std::uint64_t kMaxCaseTimeoutSeconds = 86400;

struct WorkerOptions {
  // The program and its arguments that start a worker, e.g. {this_program(), "__worker",
  // "--torch-op", "mylib::rms_norm", "--library", "libmylib.so"}.
  std::vector<std::string> command;
  std::uint64_t timeout_seconds = kDefaultCaseTimeoutSeconds;  // per case
  // What sets the deadline, named in a hang's detail: "--timeout" or "PARITY_TIMEOUT".
  std::string timeout_setting = "--timeout";
  // What a worker may allocate beyond what it holds once started (its heap and private writable
  // mappings: RLIMIT_DATA, as a soft limit), so that a runaway allocation fails in the worker
  // (out_of_memory) before it takes the machine; 0: no limit. Off by default: a sanitizer's or a
  // CUDA runtime's reservations count against RLIMIT_DATA too.
  std::uint64_t memory_limit_bytes = 0;
};

// How long a worker may take to say it is ready, in seconds: the larger of the per-case deadline
// and kDefaultCaseTimeoutSeconds (loading LibTorch and a user's libraries takes seconds).
std::uint64_t worker_start_deadline(const WorkerOptions& options);

// $PARITY_TIMEOUT (plain decimal seconds in [1, kMaxCaseTimeoutSeconds]) if set and non-empty,
// else kDefaultCaseTimeoutSeconds; throws InputError naming PARITY_TIMEOUT for any other value.
std::uint64_t default_case_timeout();
// The absolute path of the running program (/proc/self/exe), to start it again as a worker.
std::string this_program();

class CaseWorker {
 public:
  explicit CaseWorker(WorkerOptions options);
  ~CaseWorker();
  CaseWorker(const CaseWorker&) = delete;
  CaseWorker& operator=(const CaseWorker&) = delete;

  // Family::check(subject, property, c) of c.family, run in the worker (started first when none
  // is alive). Its verdict, or the one the worker's end gives: crashed ("crashed: SIGSEGV
  // (Segmentation fault)", or an exit mid-case), aborted (SIGABRT), hung ("hung: no result after
  // 60 s (--timeout)"; the worker is killed), out_of_memory (a SIGKILL parity did not send, as the
  // kernel's out-of-memory killer sends). Throws NotApplicable as Family::check does, and
  // WorkerError when no worker starts or one breaks the protocol.
  Verdict check(const std::string& subject, const std::string& property, const Case& c);

  const WorkerOptions& options() const { return options_; }

 private:
  // Starts a worker and waits for its "ready"; WorkerError if it ends or says anything else.
  void start();
  // Ends the worker: closes its socket, waits briefly for it to exit, then kills it.
  void stop();
  // Closes the worker's socket and output (after passing on what is left) and forgets its pid.
  void forget();
  // Passes on what the worker wrote, without waiting (at most kDrainReads reads), and keeps its
  // last kRecentOutputBytes.
  void drain_output();
  // Waits up to `ms` milliseconds for the worker's output, and drains what came.
  void wait_for_output(int ms);
  // "; its last output: A | B | C" from the last kLastWordsLines non-blank lines of it, or "".
  std::string last_words() const;
  // Kills the worker (unless it already ended), reaps it, and returns its wait status; `killed`
  // says whether parity's SIGKILL ended it.
  int kill_and_reap(bool& killed);
  int kill_and_reap();
  // The worker's wait status if it has ended, without waiting; it is reaped then, and must not be
  // waited for again.
  std::optional<int> ended_status();
  // Applies options_.memory_limit_bytes on top of what the started worker holds.
  void limit_memory();
  // The verdict for a worker that ended by itself while it ran a case, from its wait status.
  Verdict verdict_of_end(const std::string& property, int status) const;
  // The next line from the worker, waiting until `deadline_ms` (CLOCK_MONOTONIC); false when it
  // closed the socket or the deadline passed (timed_out says which).
  bool read_line(std::string& line, std::int64_t deadline_ms, bool& timed_out);

  WorkerOptions options_;
  pid_t pid_ = -1;
  int socket_ = -1;
  static constexpr std::size_t kRecentOutputBytes = 8192, kLastWordsLines = 3, kLastWordsChars = 600;
  static constexpr int kDrainReads = 16;
  int output_ = -1;            // the worker's standard output and error
  std::string buffered_;       // what was read past the last line
  std::string recent_output_;  // what it wrote since the current case was sent (its last bytes)
};

}  // namespace parity::gen
