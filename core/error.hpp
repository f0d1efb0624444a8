#pragma once
#include <stdexcept>
#include <string>

namespace parity {

// A usage or input error: a bad flag, a malformed file, an impossible shape. The message is
// one line that names the flag, file or field; the `parity` command exits 2 on it.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace parity
