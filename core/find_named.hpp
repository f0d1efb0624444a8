#pragma once
// Lookup by name in the registries (subjects, properties, families, rows): the one item whose
// `name` equals `wanted`, or an InputError that lists every known name.
#include <string>

#include <parity/core/error.hpp>

namespace parity {

// `items`: a range of objects with a `name` member (std::string or const char*); `what`: the
// noun for the message ("model subject" -> "unknown model subject 'x' (known: a, b)").
template <class Range>
const auto& find_named(const Range& items, const std::string& wanted, const std::string& what) {
  std::string known;
  for (const auto& item : items) {
    if (item.name == wanted) return item;
    known += (known.empty() ? "" : ", ") + std::string(item.name);
  }
  throw InputError("unknown " + what + " '" + wanted + "' (known: " + known + ")");
}

}  // namespace parity
