#pragma once
// The rows a runtime may bind, in registration order. At most one row serves a kind.
#include <string>
#include <vector>

#include <parity/subjects/runtime/row.hpp>

namespace parity::runtime {

class RowRegistry {
 public:
  // Throws InputError if the name is taken or a kind it serves already has a row.
  void add(RowInfo row);
  // The row serving `kind`, or nullptr when the kind has none (left to the provider).
  const RowInfo* for_kind(const std::string& kind) const;
  const RowInfo& find(const std::string& name) const;  // InputError listing the names
  const std::vector<RowInfo>& rows() const { return rows_; }

 private:
  std::vector<RowInfo> rows_;
};

}  // namespace parity::runtime
