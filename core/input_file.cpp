#include <parity/core/input_file.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <parity/core/error.hpp>

namespace parity {
namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_input_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused below.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError(name + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) throw InputError(name + ": cannot read (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError(name + ": is a directory (a file is needed)");
  if (!S_ISREG(st.st_mode))
    throw InputError(name + ": not a regular file (a FIFO, device or socket): parity reads regular files only");
  const auto limit = std::to_string(kMaxInputFileBytes);
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputFileBytes)
    throw InputError(name + ": " + std::to_string(st.st_size) + " bytes, larger than the limit of " + limit + " bytes");
  std::string bytes(kMaxInputFileBytes + 1, '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) throw InputError(name + ": read failed (" + std::strerror(errno) + ")");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > kMaxInputFileBytes)
    throw InputError(name + ": grew past the limit of " + limit + " bytes while being read");
  bytes.resize(got);
  return bytes;
}

}  // namespace parity
