// What running every case in a supervised worker (properties/gen/case_worker.hpp) costs a user:
// `parity check FAMILY` against `parity check FAMILY --in-process` (the baseline), each a fresh
// command as a user runs it, at the default sizes and case counts, on the family's default subject.
// Reported: the cases that reached a verdict per second of wall time (bench/README.md,
// "Supervision").
//   usage: supervision_bench [--benchmark_repetitions=N] [--benchmark_filter=...]
// PARITY_COMMAND (compiled in: the build tree's parity) is the command measured.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

extern char** environ;

namespace {

// Runs `parity check FAMILY --json FILE [--in-process]` and returns the cases its results count.
int run_check(const std::string& family, bool in_process) {
  const std::string json =
      (std::filesystem::temp_directory_path() / ("supervision_bench_" + std::to_string(::getpid()) + ".json")).string();
  std::vector<std::string> words = {PARITY_COMMAND, "check", family, "--json", json};
  if (in_process) words.push_back("--in-process");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error(std::string("cannot start ") + PARITY_COMMAND);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("parity check " + family + " did not hold (status " + std::to_string(status) + ")");
  int cases = 0;
  const nlohmann::json results = nlohmann::json::parse(std::ifstream(json));
  for (const auto& r : results["results"]) cases += r["cases"].get<int>();
  std::filesystem::remove(json);
  return cases;
}

void check(benchmark::State& state, const std::string& family, bool in_process) {
  int cases = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) cases += run_check(family, in_process);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  state.counters["cases"] = static_cast<double>(cases) / static_cast<double>(state.iterations());
  state.counters["cases_per_s"] = static_cast<double>(cases) / wall.count();
}

BENCHMARK_CAPTURE(check, rms_norm_in_process, std::string("rms_norm"), true)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_CAPTURE(check, rms_norm_supervised, std::string("rms_norm"), false)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_CAPTURE(check, lora_in_process, std::string("lora"), true)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_CAPTURE(check, lora_supervised, std::string("lora"), false)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
