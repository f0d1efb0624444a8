#include <parity/ops/framework/op_view.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <parity/core/layout.hpp>

namespace parity::ops {

namespace {

// The index into t.dims of each dim after the first, outermost column first.
std::vector<std::size_t> column_order(const TensorDecl& t, const OpCall& call) {
  std::vector<std::size_t> order;
  if (t.orders.empty()) {
    for (std::size_t k = 1; k < t.dims.size(); ++k) order.push_back(k);
    return order;
  }
  const double v = call.param(t.order_param);
  if (!(v >= 0) || v != std::floor(v) || v >= static_cast<double>(t.orders.size()))  // NaN too
    throw std::logic_error(t.name + ": order parameter " + t.order_param + " is no index into its orders");
  for (const auto& name : t.orders[static_cast<std::size_t>(v)])
    order.push_back(static_cast<std::size_t>(std::find(t.dims.begin(), t.dims.end(), name) - t.dims.begin()));
  return order;
}

// The strides of t's dims over a matrix with strides (s0, s1) (the header's rule).
std::vector<std::int64_t> dims_strides(const TensorDecl& t, const std::vector<std::int64_t>& dims, std::int64_t s0,
                                       std::int64_t s1, const OpCall& call) {
  std::vector<std::int64_t> strides(dims.size());
  strides[0] = s0;
  std::int64_t inner = s1;
  const std::vector<std::size_t> order = column_order(t, call);
  for (auto k = order.rbegin(); k != order.rend(); ++k) {
    strides[*k] = inner;
    inner *= dims[*k];
  }
  return strides;
}

// `from`'s storage under another shape and strides.
Tensor restrided(const Tensor& from, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                 std::int64_t offset) {
  Tensor out = Tensor::strided(from.dtype(), std::move(shape), std::move(strides), offset, from.storage_elements());
  std::copy(from.storage_bytes().begin(), from.storage_bytes().end(), out.storage_bytes().begin());
  return out;
}

}  // namespace

Tensor dims_view(const TensorDecl& t, const Tensor& matrix, const OpCall& call) {
  if (t.dims.empty()) return matrix;
  if (matrix.shape() != eval_shape(t, call.extents))
    throw std::logic_error(t.name + ": a matrix of shape " + shape_text(matrix.shape()) + " where " +
                           shape_text(eval_shape(t, call.extents)) + " is declared");
  const auto dims = eval_subject_shape(t, call.extents);
  return restrided(matrix, dims, dims_strides(t, dims, matrix.strides()[0], matrix.strides()[1], call),
                   matrix.offset());
}

Tensor matrix_of(const TensorDecl& t, const Tensor& shaped, const OpCall& call) {
  if (t.dims.empty()) return shaped;
  const auto dims = eval_subject_shape(t, call.extents);
  if (shaped.shape() != dims)
    throw std::invalid_argument(t.name + " is " + shape_text(shaped.shape()) + " where " + shape_text(dims) +
                                " is declared");
  const auto shape = eval_shape(t, call.extents);
  // The contiguous matrix, seen as dims, filled element by element from `shaped`.
  Tensor as_dims =
      Tensor::strided(shaped.dtype(), dims, dims_strides(t, dims, shape[1], 1, call), 0, shape[0] * shape[1]);
  for (std::int64_t i = 0; i < shaped.numel(); ++i) as_dims.set_bits(i, shaped.bits_at(i));
  return restrided(as_dims, shape, {shape[1], 1}, 0);
}

std::int64_t dims_index(const TensorDecl& t, std::int64_t matrix_index, const OpCall& call) {
  if (t.dims.empty()) return matrix_index;
  const auto dims = eval_subject_shape(t, call.extents);
  const std::int64_t columns = eval_shape(t, call.extents).at(1);
  std::vector<std::int64_t> at(dims.size());
  at[0] = matrix_index / columns;
  std::int64_t column = matrix_index % columns;
  const std::vector<std::size_t> order = column_order(t, call);
  for (auto k = order.rbegin(); k != order.rend(); ++k) {
    at[*k] = column % dims[*k];
    column /= dims[*k];
  }
  std::int64_t index = 0;
  for (std::size_t k = 0; k < dims.size(); ++k) index = index * dims[k] + at[k];
  return index;
}

bool is_packed(const TensorDecl& t, const OpCall& call) {
  return t.dims.size() >= 2 && call.lengths.contains(t.dims[1]);
}

std::vector<std::int64_t> subject_shape(const TensorDecl& t, const OpCall& call) {
  std::vector<std::int64_t> shape = eval_subject_shape(t, call.extents);
  if (!is_packed(t, call)) return shape;
  shape.erase(shape.begin());
  shape[0] = call.cu_seqlens(t.dims[1]).back();
  return shape;
}

namespace {

// f(b, s, packed position) for each row b and its position s < L_b, and the elements of one
// position (the product of dims after the second).
template <class F>
std::int64_t each_position(const TensorDecl& t, const OpCall& call, const F& f) {
  const auto dims = eval_subject_shape(t, call.extents);
  const std::vector<std::int64_t> cu = call.cu_seqlens(t.dims[1]);
  std::int64_t inner = 1;
  for (std::size_t k = 2; k < dims.size(); ++k) inner *= dims[k];
  for (std::int64_t b = 0; b + 1 < static_cast<std::int64_t>(cu.size()); ++b)
    for (std::int64_t s = 0; s < cu[b + 1] - cu[b]; ++s) f(b * dims[1] + s, cu[b] + s, inner);
  return inner;
}

}  // namespace

std::string packed_position_text(const TensorDecl& t, std::int64_t index, const OpCall& call, std::int64_t row0) {
  if (!is_packed(t, call)) return "";
  const auto dims = eval_subject_shape(t, call.extents);
  const std::int64_t per_row = elements_of(dims) / std::max<std::int64_t>(dims[0], 1);
  const std::int64_t inner = per_row / std::max<std::int64_t>(dims[1], 1);
  const std::int64_t b = row0 + index / per_row, s = index % per_row / inner;
  const std::vector<std::int64_t>& lengths = call.lengths.at(t.dims[1]);
  const std::vector<std::int64_t> cu = call.cu_seqlens(t.dims[1]);
  return " (sequence " + std::to_string(b) + ", position " + std::to_string(s) + " of its " +
         std::to_string(lengths.at(static_cast<std::size_t>(b))) + ": packed row " +
         std::to_string(cu.at(static_cast<std::size_t>(b)) + s) + ")";
}

namespace {

// The layout (Layout::place) a 2-D `matrix` lies in, read off its strides and offset: transposed
// where its column stride is not 1 (or its row stride is 1 across several columns).
Layout layout_of(const Tensor& matrix) {
  const std::int64_t rows = matrix.dim(0), cols = matrix.dim(1), s0 = matrix.strides()[0], s1 = matrix.strides()[1];
  const bool transposed = s1 != 1 || (s0 == 1 && cols > 1);
  return {.transposed = transposed,
          .ld_pad = std::max<std::int64_t>(transposed ? s1 - rows : s0 - cols, 0),
          .offset = matrix.offset()};
}

}  // namespace

Tensor packed_in_layout(const Tensor& packed, const Tensor& matrix) {
  const std::vector<std::int64_t>& shape = packed.shape();
  const std::int64_t total = shape[0], inner = total == 0 ? 0 : packed.numel() / total;
  const Layout l = layout_of(matrix);
  const Tensor placed = l.place(restrided(packed.contiguous(), {total, inner}, {inner, 1}, 0));
  std::vector<std::int64_t> strides(shape.size());
  strides[0] = placed.strides()[0];
  std::int64_t step = placed.strides()[1];
  for (std::size_t k = shape.size(); k-- > 1;) {
    strides[k] = step;
    step *= shape[k];
  }
  return restrided(placed, shape, strides, placed.offset());
}

Tensor packed(const TensorDecl& t, const Tensor& shaped, const OpCall& call) {
  Tensor out = Tensor::zeros(shaped.dtype(), subject_shape(t, call));
  each_position(t, call, [&](std::int64_t from, std::int64_t to, std::int64_t inner) {
    for (std::int64_t i = 0; i < inner; ++i) out.set_bits(to * inner + i, shaped.bits_at(from * inner + i));
  });
  return out;
}

Tensor unpacked(const TensorDecl& t, const Tensor& packed, const OpCall& call) {
  if (const auto shape = subject_shape(t, call); packed.shape() != shape)
    throw std::invalid_argument(t.name + " is " + shape_text(packed.shape()) + " where " + shape_text(shape) +
                                " (packed) is declared");
  Tensor out = Tensor::zeros(packed.dtype(), eval_subject_shape(t, call.extents));  // +0 in the padding
  each_position(t, call, [&](std::int64_t to, std::int64_t from, std::int64_t inner) {
    for (std::int64_t i = 0; i < inner; ++i) out.set_bits(to * inner + i, packed.bits_at(from * inner + i));
  });
  return out;
}

OpCall subject_call(const OpDecl& d, const OpCall& matrices) {
  OpCall call = matrices;
  for (const auto& t : d.inputs)
    if (!t.dims.empty() && matrices.has_input(t.name)) {
      Tensor view = dims_view(t, matrices.input(t.name), matrices);
      call.inputs.at(t.name) = is_packed(t, matrices)
                                   ? packed_in_layout(packed(t, view, matrices), matrices.input(t.name))
                                   : std::move(view);
    }
  return call;
}

OpOutputs run_on_matrices(const OpDecl& d, OpSubject& s, const OpCall& matrices) {
  OpOutputs out = s.run(subject_call(d, matrices));
  for (const auto& t : d.outputs)
    if (const auto it = out.find(t.name); it != out.end())
      it->second = matrix_of(t, is_packed(t, matrices) ? unpacked(t, it->second, matrices) : it->second, matrices);
  return out;
}

}  // namespace parity::ops
