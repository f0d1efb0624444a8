#pragma once
// Named comparators that return their metric (docs/design.md, "Style" 7). Element order is the logical
// row-major order of the tensors, whatever their layouts. Every NaN equals every NaN
// (payloads differ between PyTorch, ATen and CUDA); NaN/Inf positions are reported.
#include <cstdint>
#include <span>
#include <string>

#include <parity/core/element_map.hpp>
#include <parity/core/tensor.hpp>

namespace parity {

struct BitwiseDiff {
  std::int64_t compared = 0;
  std::int64_t differing = 0;     // elements whose bits differ (NaN vs NaN never counts)
  std::int64_t first_index = -1;  // logical index of the first difference, -1 if none
  std::uint64_t first_a = 0, first_b = 0;
  double first_a_value = 0.0, first_b_value = 0.0;  // those bits' values
  bool shape_mismatch = false;
  bool equal() const { return !shape_mismatch && differing == 0; }
  // "equal" or "3 of 128 elements differ; first at [2, 5]: 0x3f80 (1) vs 0x3f81 (1.0078125)",
  // with nonfinite_note's words when an Inf or NaN on one side is the difference.
  std::string describe(const std::vector<std::int64_t>& shape) const;
};

// Bit patterns of a and b, element by element (same dtype and shape required, else
// shape_mismatch).
BitwiseDiff compare_bitwise(const Tensor& a, const Tensor& b);

// Distance in units in the last place between two finite values of one dtype (f32 or
// bf16 bit patterns), counting across zero; NaN or Inf on one side gives UINT64_MAX unless
// both are the same class.
std::uint64_t ulp_distance_f32(std::uint32_t a, std::uint32_t b);
std::uint64_t ulp_distance_bf16(std::uint16_t a, std::uint16_t b);

struct ValueDiff {
  double max_abs = 0.0;  // max |a - b| over elements finite on both sides
  std::int64_t max_abs_index = -1;
  double normwise_rel = 0.0;            // ||a - b||_2 / ||b||_2 (0 if both are 0)
  std::int64_t nonfinite_mismatch = 0;  // positions where exactly one side is non-finite,
                                        // or both are Inf of different signs
  std::int64_t first_nonfinite_mismatch = -1;
};

// a against a reference b (same length), in double.
ValueDiff compare_values(std::span<const double> a, std::span<const double> b);
// The same over two tensors' values (Tensor::values: logical order, any dtype).
ValueDiff compare_values(const Tensor& a, const Tensor& b);

struct BoundCheck {
  double max_utilisation = 0.0;  // max over elements of |a - ref| / bound
  std::int64_t worst_index = -1;
  std::int64_t violations = 0;  // elements with |a - ref| > bound (or non-finite mismatch)
  std::int64_t first_violation = -1;
  bool holds() const { return violations == 0; }
};

// Per-element error bound check: |a_i - ref_i| <= bound_i. A non-finite ref requires a of
// the same class (NaN, or Inf of the same sign); a non-finite a with finite ref violates,
// except where may_overflow_i is set (empty: nowhere): there some evaluation may overflow, a
// non-finite a is accepted and a finite one checked against its bound (the bound of every
// evaluation that does not overflow). An infinite bound marks an exempt element: it accepts
// any value where the reference is finite, and any non-finite value where it is not.
// Otherwise a non-finite reference requires the same class. A non-empty may_overflow of another
// length than `a` throws std::invalid_argument.
BoundCheck check_bound(std::span<const double> a, std::span<const double> ref, std::span<const double> bound,
                       std::span<const std::uint8_t> may_overflow = {});

// Per element (logical order), 1 where the bits of a and b differ and 0 where they agree (NaN
// equals NaN, as in compare_bitwise). Same dtype and shape required (std::invalid_argument).
std::vector<double> bits_differ(const Tensor& a, const Tensor& b);

// Per element, |a_i - ref_i| / bound_i under check_bound's rules: 0 where it accepts the element
// whatever the error (an infinite bound, a non-finite value of the allowed class), inf where a
// value's class is wrong or the bound is 0 and the error is not.
std::vector<double> error_over_bound(std::span<const double> a, std::span<const double> ref,
                                     std::span<const double> bound, std::span<const std::uint8_t> may_overflow = {});

// The element map (element_map.hpp) of per-element `values` of a tensor of `shape`, seen as
// shape[0] rows of the product of the other extents; a vector or a scalar as one row of its
// elements, so that a vector draws across, not as a column.
ElementMap element_map_of(std::string output, MapMeasure measure, const std::vector<std::int64_t>& shape,
                          std::span<const double> values);

// Whether some row of a 2-D tensor other than `row` has different bits from it: the proof a
// batch-invariance check needs that the batch held other data.
bool other_row_differs(const Tensor& m, std::int64_t row);

// A number for a failure message: 9 significant digits (enough to tell float32 values
// apart), "nan", "inf", "-inf".
std::string number_text(double v);

// When an Inf or NaN is why `value` differs from `other` (called `other_name`), the cause in
// words for a message: " (inf where fp64 is finite: an overflow)", " (nan where fp64 is
// finite)", " (finite where fp64 is -inf: an Inf or NaN input was lost)", " (nan where fp64 is inf)".
// Empty when both are finite or of one class (both NaN, or Inf of one sign).
std::string nonfinite_note(double value, double other, const std::string& other_name);

// "[i, j]" for a row-major index into `shape`.
std::string index_text(std::int64_t index, const std::vector<std::int64_t>& shape);

}  // namespace parity
