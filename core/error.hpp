#pragma once
#include <stdexcept>
#include <string>

#include "core/escape.hpp"

namespace parity {

// A usage or input error: a bad flag, a malformed file, an impossible shape. The message is
// one line that names the flag, file or field; text in it that came from a user or a file is
// escaped here (core/escape.hpp), so no newline, terminal escape or NUL of an input reaches a
// terminal. The `parity` command exits 2 on it.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(escaped(message)) {}
};

}  // namespace parity
