// core/output_file.hpp: one whole text per write whatever the concurrency, no temporary file left
// on failure, errors that name the target and the reason, links written through, and paths
// checked before the work without leaving anything behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>
#include <parity/core/tests/input_error_assertions.hpp>

namespace parity {
namespace {

namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parity-output-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename());
    return out;
  }

  fs::path dir_;
};

TEST_F(OutputFile, ConcurrentWritersPublishOneWholeText) {
  const fs::path target = dir_ / "record.json";
  std::vector<std::string> texts;
  for (char c : {'a', 'b', 'c', 'd'}) texts.push_back(std::string(1 << 18, c) + "\n");
  std::vector<std::thread> writers;
  std::atomic<int> errors{0};
  for (const auto& text : texts)
    writers.emplace_back([&, text] {
      for (int i = 0; i < 20; ++i) try {
          write_text_atomically(text, target);
        } catch (const InputError&) {
          ++errors;
        }
    });
  for (auto& w : writers) w.join();
  EXPECT_EQ(errors.load(), 0);
  const std::string got = read(target);
  EXPECT_NE(std::find(texts.begin(), texts.end(), got), texts.end())
      << "a torn or mixed record of " << got.size() << " bytes";
  EXPECT_EQ(entries(), std::vector<fs::path>{"record.json"}) << "temporary files left behind";
}

TEST_F(OutputFile, FailedWriteRemovesTheTemporaryAndNamesTargetAndReason) {
  const fs::path target = dir_ / "gate.json";
  std::signal(SIGXFSZ, SIG_IGN);  // a write past RLIMIT_FSIZE then fails with EFBIG
  rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message =
      input_error_message([&] { write_text_atomically(std::string(1 << 16, 'x'), target); }, "");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  EXPECT_EQ(message, target.string() + ": write failed: File too large");
  EXPECT_TRUE(entries().empty()) << "left " << entries().front();
}

TEST_F(OutputFile, ASymbolicLinkIsWrittenThroughAndStaysALink) {
  fs::create_symlink("target.json", dir_ / "link.json");
  write_text_atomically("{}\n", dir_ / "link.json");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
  EXPECT_EQ(read(dir_ / "target.json"), "{}\n");
}

TEST_F(OutputFile, ANewFileGetsTheUmasksMode) {
  const mode_t mask = ::umask(022);
  write_text_atomically("x", dir_ / "a" / "b.txt");  // missing parents are created
  ::umask(mask);
  EXPECT_EQ(fs::status(dir_ / "a" / "b.txt").permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST_F(OutputFile, ANonRegularFileIsWrittenInPlace) {
  const fs::path fifo = dir_ / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read(fifo); });
  write_text_atomically("through the pipe\n", fifo);
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(OutputFile, PathsAreCheckedWithoutLeavingAnything) {
  EXPECT_NO_THROW(check_output_path(dir_ / "new" / "deeper" / "report.json", "--json"));
  EXPECT_NO_THROW(check_output_directory(dir_ / "repros", "--repro-dir"));
  EXPECT_NO_THROW(check_output_path("-", "--json"));
  EXPECT_TRUE(entries().empty());
  std::ofstream(dir_ / "file") << "x";
  EXPECT_THROW(check_output_path(dir_ / "file" / "report.json", "--json"), InputError);
  EXPECT_THROW(check_output_directory(dir_ / "file", "--repro-dir"), InputError);
  EXPECT_EQ(
      input_error_message([&] { check_output_path(dir_, "--out"); }, "a directory was accepted as an output file"),
      "--out: " + dir_.string() + ": is a directory (a file is needed)");
}

}  // namespace
}  // namespace parity
