#pragma once
// The tensors a subject sees, for an op that declares dims (TensorDecl::dims): the engine holds
// every operand and output as its matrix, the 2-D form of op_decl.hpp's shape; a subject receives
// each input as the view of its dims over the matrix's storage, and returns each output in its
// dims. These functions go between the two. For a tensor without dims both forms are the same.
//
// The view of a matrix [R, C] with strides (s0, s1) and offset o, for dims [R, n1, .., nk] whose
// columns lie in the order (p1, .., pk) (outermost first): dim 0 has stride s0, the innermost of
// the order stride s1, and each other the stride of the next in the order times that one's size:
// element (r, i1, .., ik) is matrix element (r, the column the order's mixed radix makes of the
// i's). Every layout of a matrix (row-major, transposed, padded, offset) is a strided view of dims.
#include <string>

#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

// The view of `matrix`, the matrix of `t` (any strides), as t's dims, over a copy of its
// storage, under `call`'s extents and (for the order) parameters. Throws std::logic_error where
// the matrix is not of t's 2-D shape.
Tensor dims_view(const TensorDecl& t, const Tensor& matrix, const OpCall& call);

// The contiguous matrix of `shaped`, a tensor of t's dims in any strides (a subject's output).
// Throws std::invalid_argument naming the shapes where `shaped` is not of t's dims.
Tensor matrix_of(const TensorDecl& t, const Tensor& shaped, const OpCall& call);

// The row-major index, in t's dims, of the element at row-major index `matrix_index` of t's
// matrix: where a message points into a subject's tensor. `matrix_index` itself for t without dims.
std::int64_t dims_index(const TensorDecl& t, std::int64_t matrix_index, const OpCall& call);

// Packed operands (op_decl.hpp, ExtentDecl::ragged): where the second of t's dims is a ragged
// extent of the call (one of OpCall::lengths), a subject's tensor of t merges the first two dims
// (the row extent B and the ragged extent S) into one of total = sum_b L_b positions, FlashAttention's
// varlen format: dims [B, S, n2, .., nk] are packed as [total, n2, .., nk], row b's position s < L_b
// at cu_seqlens[b] + s; the positions s >= L_b of each row (its padding) are not in it.
bool is_packed(const TensorDecl& t, const OpCall& call);
// The shape of a subject's tensor of t: packed where is_packed, else eval_subject_shape's.
std::vector<std::int64_t> subject_shape(const TensorDecl& t, const OpCall& call);
// Where element `index` of a tensor of t's dims (rows from `row0` of the call's) lies in the
// subject's packed tensor, as words: " (sequence b, position s of its L_b: packed row
// cu_seqlens[b] + s)"; "" for t not packed.
std::string packed_position_text(const TensorDecl& t, std::int64_t index, const OpCall& call, std::int64_t row0 = 0);
// The packed, contiguous tensor of `shaped`, a tensor of t's dims (any strides). Requires is_packed.
Tensor packed(const TensorDecl& t, const Tensor& shaped, const OpCall& call);
// `packed` (a packed tensor [total, n2, .., nk], any strides) in the layout of `matrix` (the
// engine's matrix of the same operand, placed by Layout::place): the packed tensor seen as its
// matrix [total, n2*..*nk], placed with `matrix`'s transposition, padding (NaN-filled) and offset
// as Layout::place places it, and viewed back as [total, n2, .., nk] over that storage. A
// contiguous `matrix` gives a contiguous tensor.
Tensor packed_in_layout(const Tensor& packed, const Tensor& matrix);
// The contiguous tensor of t's dims of `packed` (a subject's packed output, any strides), +0 at
// every padding position: nothing a subject writes lands there. Throws std::invalid_argument
// naming the shapes where `packed` is not of subject_shape. Requires is_packed.
Tensor unpacked(const TensorDecl& t, const Tensor& packed, const OpCall& call);

// The call a subject receives for the engine's call `matrices`: each input of `decl` that
// declares dims as its dims_view (packed where is_packed, in its matrix's layout:
// packed_in_layout), the rest as they are.
OpCall subject_call(const OpDecl& decl, const OpCall& matrices);

// `s` run on the engine's call `matrices`, its outputs back as their matrices (packed ones
// unpacked first). Throws std::invalid_argument (matrix_of's, unpacked's) for an output of other
// dims than the declared ones.
OpOutputs run_on_matrices(const OpDecl& decl, OpSubject& s, const OpCall& matrices);

}  // namespace parity::ops
