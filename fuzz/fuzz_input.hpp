#pragma once
// What a harness input decodes to: a Case and the property to check it with. The same
// decoder serves the harness and `parity fuzz-repro`, so a crash file means the same Case to
// both.
#include <string>

#include <parity/core/case.hpp>

namespace parity::fuzz {

struct FuzzInput {
  Case c;
  std::string property;

  friend bool operator==(const FuzzInput&, const FuzzInput&) = default;
};

}  // namespace parity::fuzz
