#include <parity/subjects/runtime/row_registry.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::runtime {

std::string backend_name(Backend b) { return b == Backend::host ? "host" : "cuda"; }

void RowRegistry::add(RowInfo row) {
  for (const auto& r : rows_) {
    if (r.name == row.name) throw InputError("row '" + row.name + "' is registered twice");
    for (const auto& k : row.serves)
      for (const auto& existing : r.serves)
        if (k == existing) throw InputError("rows '" + r.name + "' and '" + row.name + "' both serve '" + k + "'");
  }
  rows_.push_back(std::move(row));
}

const RowInfo* RowRegistry::for_kind(const std::string& kind) const {
  for (const auto& r : rows_)
    for (const auto& k : r.serves)
      if (k == kind) return &r;
  return nullptr;
}

const RowInfo& RowRegistry::find(const std::string& name) const { return find_named(rows_, name, "row"); }

}  // namespace parity::runtime
