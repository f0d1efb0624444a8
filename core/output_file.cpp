#include <parity/core/output_file.hpp>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>

namespace parity {
namespace {

namespace fs = std::filesystem;

// "<prefix><path>: <what>: <the reason for err>" (no reason when err is 0).
[[noreturn]] void fail(const std::string& prefix, const fs::path& path, const std::string& what, int err) {
  throw InputError(prefix + path.string() + ": " + what + (err ? std::string(": ") + std::strerror(err) : ""));
}

// The descriptor `path` names ("-", /dev/stdout, /dev/fd/3, ...), or -1.
int named_descriptor(const fs::path& path) {
  const std::string s = path.string();
  if (s == "-" || s == "/dev/stdout") return 1;
  if (s == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"})
    if (s.starts_with(prefix))
      if (const auto n = parse_decimal(std::string_view(s).substr(prefix.size())); n && *n <= INT_MAX)
        return static_cast<int>(*n);
  return -1;
}

// Whether `a` and `b` are the same open file, pipe or device.
bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

void write_all(int fd, const std::string& text, const fs::path& target) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("", target, "write failed", n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
}

// The nearest existing ancestor of `dir` (itself if it exists; "." for a relative path's end);
// throws if it is not a directory.
fs::path existing_directory(const fs::path& dir, const std::string& prefix, const fs::path& target) {
  fs::path d = dir.empty() ? fs::path(".") : dir;
  struct stat st;
  while (::stat(d.c_str(), &st) != 0) {
    if ((errno != ENOENT && errno != ENOTDIR) || d == "." || d == "/")
      fail(prefix, target, "cannot reach " + d.string(), errno);
    d = d.has_relative_path() && d.has_parent_path() ? d.parent_path() : fs::path(d.is_absolute() ? "/" : ".");
  }
  if (!S_ISDIR(st.st_mode)) fail(prefix, target, d.string() + " is not a directory", 0);
  return d;
}

// Creates (and removes) a file in `dir`: the one reliable test that a file can be written there.
void probe_directory(const fs::path& dir, const std::string& prefix, const fs::path& target) {
  std::string name = (dir / ".parity-write-probe-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(prefix, target, "cannot create a file in " + dir.string(), errno);
  ::close(fd);
  ::unlink(name.c_str());
}

// A temporary file that is removed unless it was renamed into place.
class Temporary {
 public:
  explicit Temporary(const fs::path& target) : name_(target.string() + ".tmp.XXXXXX") {
    fd_ = ::mkstemp(name_.data());
    if (fd_ < 0) fail("", target, "cannot create a temporary file beside it", errno);
  }
  ~Temporary() {
    if (fd_ >= 0) ::close(fd_);
    if (!name_.empty()) ::unlink(name_.c_str());
  }
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;
  int fd() const { return fd_; }
  void close(const fs::path& target) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("", target, "write failed", errno);
  }
  void rename_to(const fs::path& target) {
    if (::rename(name_.c_str(), target.c_str()) != 0) fail("", target, "cannot replace it", errno);
    name_.clear();
  }

 private:
  std::string name_;
  int fd_ = -1;
};

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// `path` with its symbolic links followed, a dangling one included (its target is created).
fs::path link_target(const fs::path& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(p); ++hops) {
    const fs::path t = fs::read_symlink(p);
    p = t.is_absolute() ? t : p.parent_path() / t;
  }
  return p;
}

void write_regular(const std::string& text, const fs::path& path) {
  std::error_code ec;
  const fs::path target = link_target(path);
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) fail("", target, "cannot create its directory", ec.value());
  }
  struct stat st;
  const mode_t mode = ::stat(target.c_str(), &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
  Temporary tmp(target);
  if (::fchmod(tmp.fd(), mode) != 0) fail("", target, "cannot set the temporary file's mode", errno);
  write_all(tmp.fd(), text, target);
  tmp.close(target);
  tmp.rename_to(target);
}

}  // namespace

void check_output_path(const fs::path& path, const std::string& what) {
  const std::string prefix = what + ": ";
  if (const int fd = named_descriptor(path); fd >= 0) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) fail(prefix, path, "descriptor " + std::to_string(fd) + " is not open", errno);
    if ((flags & O_ACCMODE) == O_RDONLY) fail(prefix, path, "descriptor " + std::to_string(fd) + " is read-only", 0);
    return;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(prefix, path, "is a directory (a file is needed)", 0);
    if (::access(path.c_str(), W_OK) != 0) fail(prefix, path, "cannot be written", errno);
    if (!S_ISREG(st.st_mode)) return;  // written in place
    probe_directory(fs::canonical(path).parent_path(), prefix, path);
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR) fail(prefix, path, "cannot be written", errno);
  probe_directory(existing_directory(link_target(path).parent_path(), prefix, path), prefix, path);
}

void check_output_directory(const fs::path& dir, const std::string& what) {
  probe_directory(existing_directory(dir, what + ": ", dir), what + ": ", dir);
}

bool writes_to_stdout(const fs::path& path) {
  // A named descriptor is the one named (/dev/stderr is stderr, wherever it points); any other
  // path is stdout where it names what stdout is open on.
  if (const int fd = named_descriptor(path); fd >= 0) return fd == 1;
  struct stat out, st;
  return ::fstat(1, &out) == 0 && ::stat(path.c_str(), &st) == 0 && same_file(st, out);
}

void write_text_atomically(const std::string& text, const fs::path& path) {
  if (const int fd = named_descriptor(path); fd >= 0) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    write_all(fd, text, path);
    return;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) fail("", path, "is a directory (a file is needed)", 0);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail("", path, "cannot open for writing", errno);
    try {
      write_all(fd, text, path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) fail("", path, "write failed", errno);
    return;
  }
  write_regular(text, path);
}

void write_json_atomically(const nlohmann::json& j, const fs::path& path) {
  write_text_atomically(j.dump(1) + '\n', path);
}

}  // namespace parity
