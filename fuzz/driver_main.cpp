// A plain driver for the harnesses where libFuzzer is absent (the default g++ build), so the
// fuzz-smoke tests run everywhere. It accepts libFuzzer's command line for what it supports:
//
//   HARNESS [-runs=N] [-seed=S] [-dict=FILE] [-max_len=N] [-artifact_prefix=P] FILE|DIR...
//
// Every file (a directory: each regular file in it, sorted) is run once; given only files and
// no -runs, that is all (as libFuzzer replays crash files). Otherwise deterministic mutations
// of them (bit flips, interesting bytes, little-endian increments, dictionary entries,
// erasures, duplications, splices; seeded by -seed) run until -runs inputs (default 2000)
// have run in all. A mutation that reaches a configuration not observed before
// (fuzz/feedback.hpp) joins the pool. Other flags are ignored. A crash (a trapped property,
// an abort) first writes the input to <artifact_prefix>crash-<hash>, as libFuzzer does.
// Prints execs/s at the end.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <parity/fuzz/feedback.hpp>
#include <parity/fuzz/harness.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

const Bytes* current = nullptr;
std::string artifact_prefix;

void on_crash(int sig) {
  if (current) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint8_t b : *current) h = (h ^ b) * 1099511628211ull;
    char name[4096];
    std::snprintf(name, sizeof name, "%scrash-%016llx", artifact_prefix.c_str(), static_cast<unsigned long long>(h));
    if (const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644); fd >= 0) {
      [[maybe_unused]] auto w = ::write(fd, current->data(), current->size());
      ::close(fd);
      std::fprintf(stderr, "==driver== crash (signal %d): input written to %s\n", sig, name);
    }
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

Bytes read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// libFuzzer's dictionary format: one "value" per line (optionally name="value"), with \\, \"
// and \xNN escapes; # starts a comment.
std::vector<Bytes> read_dict(const fs::path& p) {
  std::vector<Bytes> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    const auto open = line.find('"'), close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    Bytes v;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (line[i] == '\\' && i + 1 < close && line[i + 1] == 'x' && i + 3 < close) {
        v.push_back(static_cast<std::uint8_t>(std::stoi(line.substr(i + 2, 2), nullptr, 16)));
        i += 3;
      } else if (line[i] == '\\' && i + 1 < close) {
        v.push_back(static_cast<std::uint8_t>(line[++i]));
      } else {
        v.push_back(static_cast<std::uint8_t>(line[i]));
      }
    }
    if (!v.empty()) out.push_back(v);
  }
  return out;
}

Bytes mutate(Bytes b, const std::vector<Bytes>& pool, const std::vector<Bytes>& dict, Rng& rng, std::size_t max_len) {
  static const std::uint8_t interesting[] = {0, 1, 2, 7, 15, 16, 17, 31, 32, 63, 64, 0x7F, 0x80, 0xFE, 0xFF};
  const int rounds = 1 + static_cast<int>(rng.below(4));
  for (int i = 0; i < rounds; ++i) {
    const std::size_t at = rng.below(b.size() + 1);
    switch (rng.below(dict.empty() ? 8 : 10)) {
      case 0:
        if (!b.empty()) b[rng.below(b.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
        break;
      case 1:
        if (!b.empty()) b[rng.below(b.size())] = static_cast<std::uint8_t>(rng.next());
        break;
      case 2:
        if (!b.empty()) b[rng.below(b.size())] = interesting[rng.below(std::size(interesting))];
        break;
      case 3:
        if (!b.empty()) b[rng.below(b.size())] += static_cast<std::uint8_t>(rng.below(2) ? 1 : 0xFF);
        break;
      case 4:
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng.next()));
        break;
      case 5:
        if (at < b.size())
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                  b.begin() + static_cast<std::ptrdiff_t>(std::min(b.size(), at + 1 + rng.below(8))));
        break;
      case 6:
        if (at < b.size()) {  // duplicate a chunk
          const Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(at),
                            b.begin() + static_cast<std::ptrdiff_t>(std::min(b.size(), at + 1 + rng.below(8))));
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(rng.below(b.size() + 1)), chunk.begin(), chunk.end());
        }
        break;
      case 7:
        if (!pool.empty()) {  // splice: our head, another input's tail
          const Bytes& o = pool[rng.below(pool.size())];
          const std::size_t from = rng.below(o.size() + 1);
          b.resize(at);
          b.insert(b.end(), o.begin() + static_cast<std::ptrdiff_t>(from), o.end());
        }
        break;
      case 8: {  // insert a dictionary entry
        const Bytes& d = dict[rng.below(dict.size())];
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), d.begin(), d.end());
      } break;
      default: {  // overwrite with a dictionary entry
        const Bytes& d = dict[rng.below(dict.size())];
        for (std::size_t k = 0; k < d.size(); ++k)
          if (at + k < b.size()) b[at + k] = d[k];
      } break;
    }
  }
  if (b.size() > max_len) b.resize(max_len);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef PARITY_FUZZ_REPLAY_COMMAND  // a user's op fuzzer (parity_add_op_fuzzer)
  parity::fuzz::set_replay_command(PARITY_FUZZ_REPLAY_COMMAND);
#endif
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  long long runs = -1;  // default: the inputs only when every argument is a file, else 2000
  bool any_directory = false;
  std::uint64_t seed = 1;
  std::size_t max_len = 4096;
  std::vector<Bytes> dict, pool;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) { return a.substr(std::strlen(flag)); };
    if (a.rfind("-runs=", 0) == 0) runs = std::stoll(value("-runs="));
    else if (a.rfind("-seed=", 0) == 0) seed = std::stoull(value("-seed="));
    else if (a.rfind("-max_len=", 0) == 0) max_len = std::stoull(value("-max_len="));
    else if (a.rfind("-dict=", 0) == 0) dict = read_dict(value("-dict="));
    else if (a.rfind("-artifact_prefix=", 0) == 0) artifact_prefix = value("-artifact_prefix=");
    else if (a.rfind("-", 0) == 0) std::cerr << "driver: ignoring " << a << " (a libFuzzer flag)\n";
    else if (fs::is_directory(a)) {
      any_directory = true;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(a))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (fs::exists(a)) inputs.push_back(a);
    else std::cerr << "driver: no such file or directory: " << a << "\n";
  }
  if (runs < 0) runs = any_directory || inputs.empty() ? 2000 : 0;
  for (int sig : {SIGILL, SIGABRT, SIGSEGV, SIGFPE, SIGBUS}) std::signal(sig, on_crash);

  const auto start = std::chrono::steady_clock::now();
  long long done = 0;
  auto run = [&](const Bytes& b) {
    current = &b;
    LLVMFuzzerTestOneInput(b.data(), b.size());
    current = nullptr;
    ++done;
  };
  for (const auto& p : inputs) {
    pool.push_back(read_file(p));
    run(pool.back());
  }
  if (pool.empty()) {
    pool.emplace_back();
    run(pool.back());
  }
  Rng rng{seed * 0x9E3779B97F4A7C15ull + 1};
  while (done < runs) {
    const std::size_t before = parity::fuzz::configs_seen();
    Bytes b = mutate(pool[rng.below(pool.size())], pool, dict, rng, max_len);
    run(b);
    if (parity::fuzz::configs_seen() > before) pool.push_back(std::move(b));
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << "driver: Done " << done << " runs in " << s << " s (" << static_cast<long long>(done / std::max(s, 1e-9))
            << " execs/s), " << inputs.size() << " seed inputs, " << parity::fuzz::configs_seen()
            << " configurations observed, pool " << pool.size() << "\n";
  return 0;
}
