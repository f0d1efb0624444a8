#pragma once
// The precondition of every batch_vs_batch property: a row compared across two batches of
// different sizes, both above one, the row inside both.
#include <cstdint>
#include <string>

namespace parity::properties {

// Why a batch of `rows` and one of `other_rows` cannot be compared at row `probe_row` (the
// verdict's discard reason), or "" when they can.
inline std::string batch_pair_unusable(std::int64_t rows, std::int64_t other_rows, std::int64_t probe_row) {
  if (rows < 2 || other_rows < 2) return "a batch of one row";
  if (rows == other_rows) return "both batches have " + std::to_string(rows) + " rows";
  if (probe_row >= other_rows) return "the probe row is past the smaller batch";
  return {};
}

}  // namespace parity::properties
