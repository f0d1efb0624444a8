#pragma once
// The one reader of the files a user hands parity (reproducers, crash files): a regular file of
// at most a few MiB, its size checked before it is read.
#include <cstddef>
#include <filesystem>
#include <string>

namespace parity {

// The largest input file parity reads: 4 MiB (a reproducer is a few KiB, a crash file less).
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{4} << 20;

// The bytes of `path`. Throws InputError naming the file for a missing or unreadable file, a
// directory, anything but a regular file (a FIFO, a device such as /dev/zero, a socket), and a
// file larger than kMaxInputFileBytes; a FIFO is refused without waiting for a writer.
std::string read_input_file(const std::filesystem::path& path);

}  // namespace parity
