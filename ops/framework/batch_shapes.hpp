#pragma once
// The batch shapes that servers and trainers give a kernel beyond the batch itself, and how the
// batch properties (op_checks.hpp: rows_permuted, rows_padded, rows_chunked) and the probes that
// switch plan on them (batch_shape_probes.hpp) build and recognise them. A row is an index of a
// tensor's first dimension, the row extent's (op_decl.hpp).
#include <cstdint>
#include <vector>

#include <string>

#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_decl.hpp>

namespace parity::ops {

// The sum of squares of each row of `x` (NaN counting as +Inf, so the order below is total).
std::vector<double> row_squared_norms(const Tensor& x);

// The rows of `x` by descending squared norm, ties by ascending index: the order rows_permuted
// runs a batch in (deterministic, from the rows' contents, and for a random batch not the
// identity).
std::vector<std::int64_t> descending_norm_order(const Tensor& x);

// The input whose rows' norms order a permuted batch, for rows_permuted and the sorted-batch
// probe alike: the first input led by the row extent that every case has (present_if empty).
// validate (op_decl.hpp) guarantees one; throws std::logic_error for a declaration without.
const std::string& row_order_input(const OpDecl& d);

// Whether the rows of `x` already lie in descending_norm_order (a batch of one row does).
bool sorted_by_descending_norm(const Tensor& x);

// The order rows_permuted runs a batch in: descending_norm_order, or where the rows already lie
// in it, that order reversed; so never the identity for two rows or more.
std::vector<std::int64_t> permuted_order(const Tensor& x);

// Whether the last row of `x` holds +0 in every element (a padding row); false for no rows.
bool last_row_is_zero(const Tensor& x);

// The bucket a batch of `rows` is padded to: the smallest power of two strictly above it.
std::int64_t padded_rows(std::int64_t rows);

// The rows of each chunk rows_chunked runs a batch of `rows` in: ceil(rows / kChunks), the last
// chunk holding the remainder.
inline constexpr std::int64_t kChunks = 3;
std::int64_t chunk_rows(std::int64_t rows);

}  // namespace parity::ops
