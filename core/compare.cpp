#include <parity/core/compare.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/json_read.hpp>

namespace parity {
namespace {

bool is_nan_bits(DType t, std::uint64_t bits) {
  switch (t) {
    case DType::f32:
      return std::isnan(bits_float(static_cast<std::uint32_t>(bits)));
    case DType::bf16:
      return bf16_is_nan(static_cast<std::uint16_t>(bits));
    case DType::f16:
      return f16_is_nan(static_cast<std::uint16_t>(bits));
    case DType::f64:
      return (bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (bits & 0x000FFFFFFFFFFFFFull) != 0;
  }
  return false;
}

// Maps sign-magnitude bits onto a monotone integer line.
std::int64_t ordered(std::uint64_t bits, int width_bits) {
  const std::uint64_t sign = 1ull << (width_bits - 1);
  const std::int64_t mag = static_cast<std::int64_t>(bits & (sign - 1));
  return (bits & sign) ? -mag : mag;
}

// Bits of element i of a contiguous tensor, read straight from its storage (no index
// arithmetic per dimension).
std::uint64_t contiguous_bits(const Tensor& c, std::int64_t i) {
  const std::size_t width = dtype_size(c.dtype());
  std::uint64_t bits = 0;
  std::memcpy(&bits, c.storage_bytes().data() + static_cast<std::size_t>(i) * width, width);
  return bits;
}

}  // namespace

bool other_row_differs(const Tensor& m, std::int64_t row) {
  const Tensor c = m.contiguous();
  const std::int64_t rows = c.dim(0), cols = c.dim(1);
  for (std::int64_t u = 0; u < rows; ++u)
    for (std::int64_t k = 0; k < cols && u != row; ++k)
      if (contiguous_bits(c, u * cols + k) != contiguous_bits(c, row * cols + k)) return true;
  return false;
}

namespace {

std::string value_class(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return "finite";
}

}  // namespace

std::string nonfinite_note(double value, double other, const std::string& other_name) {
  const std::string a = value_class(value), b = value_class(other);
  if (a == b) return {};
  std::string s = " (" + a + " where " + other_name + " is " + b;
  if (std::isinf(value) && b == "finite") s += ": an overflow";
  // The oracles follow the exact reals extended to Inf and NaN (docs/math.md): an infinite
  // reference comes from the inputs, not from an overflow of its own.
  if (a == "finite" && std::isinf(other)) s += ": an Inf or NaN input was lost";
  return s + ")";
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string index_text(std::int64_t index, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> idx(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? index % shape[d] : 0;
    index = shape[d] ? index / shape[d] : 0;
  }
  return shape_text(idx);
}

std::string BitwiseDiff::describe(const std::vector<std::int64_t>& shape) const {
  if (shape_mismatch) return "shapes or dtypes differ";
  if (differing == 0) return "equal (" + std::to_string(compared) + " elements)";
  return std::to_string(differing) + " of " + std::to_string(compared) + " elements differ; first at " +
         index_text(first_index, shape) + ": " + json_read::hex_bits(first_a, 4) + " (" + number_text(first_a_value) +
         ") vs " + json_read::hex_bits(first_b, 4) + " (" + number_text(first_b_value) + ")" +
         nonfinite_note(first_a_value, first_b_value, "the other");
}

BitwiseDiff compare_bitwise(const Tensor& a, const Tensor& b) {
  BitwiseDiff d;
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    d.shape_mismatch = true;
    return d;
  }
  d.compared = a.numel();
  // A contiguous operand is read in place; bytes equal throughout are elements equal throughout.
  Tensor copy_a, copy_b;
  const Tensor& ca = a.is_contiguous() ? a : (copy_a = a.contiguous());
  const Tensor& cb = b.is_contiguous() ? b : (copy_b = b.contiguous());
  const std::size_t width = dtype_size(a.dtype());
  const std::byte *pa = ca.storage_bytes().data(), *pb = cb.storage_bytes().data();
  if (d.compared == 0 || std::memcmp(pa, pb, static_cast<std::size_t>(d.compared) * width) == 0) return d;
  for (std::int64_t i = 0; i < d.compared; ++i) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, pa + static_cast<std::size_t>(i) * width, width);
    std::memcpy(&y, pb + static_cast<std::size_t>(i) * width, width);
    if (x == y || (is_nan_bits(a.dtype(), x) && is_nan_bits(a.dtype(), y))) continue;
    if (d.differing++ == 0) {
      d.first_index = i;
      d.first_a = x;
      d.first_b = y;
      d.first_a_value = a.value_at(i);
      d.first_b_value = b.value_at(i);
    }
  }
  return d;
}

std::uint64_t ulp_distance_f32(std::uint32_t a, std::uint32_t b) {
  const float fa = bits_float(a), fb = bits_float(b);
  if (std::isnan(fa) || std::isnan(fb))
    return std::isnan(fa) && std::isnan(fb) ? 0 : std::numeric_limits<std::uint64_t>::max();
  const std::int64_t d = ordered(a, 32) - ordered(b, 32);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

std::uint64_t ulp_distance_bf16(std::uint16_t a, std::uint16_t b) {
  if (bf16_is_nan(a) || bf16_is_nan(b))
    return bf16_is_nan(a) && bf16_is_nan(b) ? 0 : std::numeric_limits<std::uint64_t>::max();
  const std::int64_t d = ordered(a, 16) - ordered(b, 16);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

ValueDiff compare_values(const Tensor& a, const Tensor& b) {
  const std::vector<double> va = a.values(), vb = b.values();
  return compare_values(std::span<const double>(va), std::span<const double>(vb));
}

ValueDiff compare_values(std::span<const double> a, std::span<const double> b) {
  ValueDiff d;
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const bool fa = std::isfinite(a[i]), fb = std::isfinite(b[i]);
    if (!fa || !fb) {
      const bool same_class = (std::isnan(a[i]) && std::isnan(b[i])) || (!fa && !fb && a[i] == b[i]);
      if (!same_class && d.nonfinite_mismatch++ == 0) d.first_nonfinite_mismatch = static_cast<std::int64_t>(i);
      continue;
    }
    const double e = std::fabs(a[i] - b[i]);
    if (d.max_abs_index < 0 || e > d.max_abs) {
      d.max_abs = e;
      d.max_abs_index = static_cast<std::int64_t>(i);
    }
    num += e * e;
    den += b[i] * b[i];
  }
  d.normwise_rel = den > 0.0 ? std::sqrt(num / den) : (num > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
  return d;
}

namespace {

double utilisation_at(double a, double ref, double bound, bool may_overflow) {
  if (!std::isfinite(ref)) {
    // Where the float evaluation may overflow, inf - inf can turn the reference's Inf into a
    // NaN: any non-finite result is then acceptable, a finite one never.
    const bool same = (std::isnan(a) && std::isnan(ref)) || a == ref;
    const bool allowed = same || (!std::isfinite(bound) && !std::isfinite(a));
    return allowed ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(bound)) return 0.0;
  if (!std::isfinite(a)) return may_overflow ? 0.0 : std::numeric_limits<double>::infinity();
  const double e = std::fabs(a - ref);
  return e == 0.0 ? 0.0 : (bound > 0.0 ? e / bound : std::numeric_limits<double>::infinity());
}

bool flag_at(std::span<const std::uint8_t> flags, std::size_t i) { return !flags.empty() && flags[i] != 0; }

void require_flags_for(std::span<const double> a, std::span<const std::uint8_t> flags) {
  if (!flags.empty() && flags.size() != a.size())
    throw std::invalid_argument("check_bound: " + std::to_string(flags.size()) + " may_overflow marks for " +
                                std::to_string(a.size()) + " values");
}

}  // namespace

BoundCheck check_bound(std::span<const double> a, std::span<const double> ref, std::span<const double> bound,
                       std::span<const std::uint8_t> may_overflow) {
  require_flags_for(a, may_overflow);
  BoundCheck c;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double utilisation = utilisation_at(a[i], ref[i], bound[i], flag_at(may_overflow, i));
    if (c.worst_index < 0 || utilisation > c.max_utilisation) {
      c.max_utilisation = utilisation;
      c.worst_index = static_cast<std::int64_t>(i);
    }
    if (utilisation > 1.0 && c.violations++ == 0) c.first_violation = static_cast<std::int64_t>(i);
  }
  return c;
}

std::vector<double> error_over_bound(std::span<const double> a, std::span<const double> ref,
                                     std::span<const double> bound, std::span<const std::uint8_t> may_overflow) {
  require_flags_for(a, may_overflow);
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = utilisation_at(a[i], ref[i], bound[i], flag_at(may_overflow, i));
  return out;
}

std::vector<double> bits_differ(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    throw std::invalid_argument("bits_differ: " + shape_text(a.shape()) + " vs " + shape_text(b.shape()));
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  std::vector<double> out(static_cast<std::size_t>(a.numel()));
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    const std::uint64_t x = contiguous_bits(ca, i), y = contiguous_bits(cb, i);
    out[static_cast<std::size_t>(i)] = x == y || (is_nan_bits(a.dtype(), x) && is_nan_bits(a.dtype(), y)) ? 0.0 : 1.0;
  }
  return out;
}

ElementMap element_map_of(std::string output, MapMeasure measure, const std::vector<std::int64_t>& shape,
                          std::span<const double> values) {
  const std::int64_t rows = shape.size() < 2 ? 1 : std::max<std::int64_t>(shape[0], 1);
  return element_map(std::move(output), measure, rows, static_cast<std::int64_t>(values.size()) / rows, values);
}

}  // namespace parity
