#pragma once
// The name of a test named after a subject, a probe or a property: their names hold '-', which
// gtest does not accept in a test name.
#include <algorithm>
#include <string>

namespace parity {

// `name` with each '-' replaced by '_'.
inline std::string gtest_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace parity
