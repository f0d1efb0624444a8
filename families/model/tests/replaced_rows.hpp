#pragma once
// What the kernel-binding tests check of a model registry with some rows bound to a kernel: it
// has parity's rows in order, each keeping its boundaries and opt-in group, and every row that
// differs is named "ROW=SUBJECT".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/families/model/rows/model_rows.hpp>
#include <parity/subjects/runtime/row_registry.hpp>

namespace parity {

// parity's rows that `bound` replaces with rows on `subject`, in row order (none where the row
// lists differ in length, which fails the test).
inline std::vector<const runtime::RowInfo*> replaced_rows(const runtime::RowRegistry& bound,
                                                          const std::string& subject) {
  const auto& base = model::model_rows().rows();
  const auto& rows = bound.rows();
  EXPECT_EQ(rows.size(), base.size());
  if (rows.size() != base.size()) return {};
  std::vector<const runtime::RowInfo*> replaced;
  for (std::size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(rows[i].serves, base[i].serves) << base[i].name;
    EXPECT_EQ(rows[i].opt_in, base[i].opt_in) << base[i].name;
    if (rows[i].name == base[i].name) continue;
    EXPECT_EQ(rows[i].name, base[i].name + "=" + subject);
    replaced.push_back(&base[i]);
  }
  return replaced;
}

// Their names.
inline std::vector<std::string> replaced_row_names(const runtime::RowRegistry& bound, const std::string& subject) {
  std::vector<std::string> names;
  for (const runtime::RowInfo* row : replaced_rows(bound, subject)) names.push_back(row->name);
  return names;
}

}  // namespace parity
