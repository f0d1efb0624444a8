#pragma once
// The one writer of parity's output files: reports (--json, --out, --html), records (--record)
// and reproducers. Where the text goes depends on what the path is:
//   "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that descriptor of this process,
//       written in place (stdout is where a user pipes JSON);
//   an existing file that is neither a regular file nor a directory (a FIFO, /dev/null, a
//       terminal): opened and written in place, never replaced;
//   otherwise a regular file, new or existing (through a symbolic link: its target): the text
//       goes to a uniquely named temporary file beside it, which is renamed over it, so a
//       reader never sees half a file and two writers never mix. Missing parent directories
//       are created. On failure the temporary file is removed.
// Every error is an InputError "<path>: <what failed>: <the system's reason>".
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace parity {

// Throws InputError "<what>: <path>: <reason>" unless `path` can be written as above: not a
// directory, its directory (or the nearest existing ancestor) a directory where a file can be
// created (tried, then removed), an existing file writable, a named descriptor open for
// writing. For checking a command's output paths before its work, not after.
void check_output_path(const std::filesystem::path& path, const std::string& what);
// The same for a directory files will be written into (created if missing).
void check_output_directory(const std::filesystem::path& dir, const std::string& what);

// Whether writing `path` as described above writes this process's stdout: "-", /dev/stdout,
// /dev/fd/1, or a path (not a named descriptor) of the file, pipe or terminal stdout is open on. A command that writes
// such a path sends its text for a person to stderr instead.
bool writes_to_stdout(const std::filesystem::path& path);

// Writes `text` to `path` as described above.
void write_text_atomically(const std::string& text, const std::filesystem::path& path);
// write_text_atomically of `j` as indented JSON and a newline.
void write_json_atomically(const nlohmann::json& j, const std::filesystem::path& path);

}  // namespace parity
