#include <parity/cli/case_worker_flags.hpp>

#include <string>

#include <parity/core/error.hpp>

namespace parity::cli {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxMemoryLimitGiB = 1 << 20;

}  // namespace

std::vector<FlagSpec> with_case_worker(std::vector<FlagSpec> flags) {
  flags.push_back({"--timeout", "SECONDS",
                   "the deadline of one case, after which the subject counts as hung and its worker is killed "
                   "(default $PARITY_TIMEOUT, else " +
                       std::to_string(gen::kDefaultCaseTimeoutSeconds) + ")"});
  flags.push_back({"--memory-limit", "GIB",
                   "the memory a worker may allocate beyond what it holds once started, in GiB; past it an "
                   "allocation fails as out of memory (default: no limit)"});
  flags.push_back({"--in-process", "",
                   "run the subject in this process, not in a supervised worker (for a debugger): a crash or a hang "
                   "then ends the run without a verdict"});
  return flags;
}

std::shared_ptr<gen::CaseWorker> case_worker(const Args& args, const std::optional<ops::TorchOpSpec>& torch_op) {
  if (args.has("--in-process")) {
    for (const char* flag : {"--timeout", "--memory-limit"})
      if (args.has(flag)) throw InputError(std::string(flag) + ": applies to a worker, and --in-process runs none");
    return nullptr;
  }
  gen::WorkerOptions options;
  options.command = {gen::this_program(), kWorkerCommand};
  if (torch_op)
    for (const auto& word : ops::torch_op_flag_args(*torch_op)) options.command.push_back(word);
  options.timeout_seconds = args.number("--timeout", gen::default_case_timeout(), 1, gen::kMaxCaseTimeoutSeconds);
  options.memory_limit_bytes = args.number("--memory-limit", 0, 1, kMaxMemoryLimitGiB) * kGiB;
  return std::make_shared<gen::CaseWorker>(std::move(options));
}

}  // namespace parity::cli
