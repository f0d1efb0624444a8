#pragma once
// Hand-made cases of an op, as the ops' tests write them.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include <parity/core/case.hpp>

namespace parity::ops::testing {

// A hand-made case of the op `family`: these extents and parameters, its operands drawn from
// `seed`, every other field at its default.
inline Case case_of(std::string family, std::uint64_t seed, std::map<std::string, std::int64_t> dims,
                    std::map<std::string, double> params) {
  Case c;
  c.family = std::move(family);
  c.seed = seed;
  c.dims = std::move(dims);
  c.params = std::move(params);
  return c;
}

}  // namespace parity::ops::testing
