#pragma once
// A dense tensor of one dtype: logical shape, element strides and a storage offset into an
// owned buffer. Copying a Tensor copies its storage (value semantics), so "fresh buffers" are
// a copy away. Padding elements of a strided storage belong to the storage, not to the
// logical tensor.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/dtype.hpp>
#include <parity/core/f16.hpp>

namespace parity {

class Tensor {
 public:
  // The largest storage parity allocates for one tensor (2^31 elements): a case asking for
  // more is refused as input, not attempted.
  static constexpr std::int64_t kMaxStorageElements = std::int64_t{1} << 31;

  Tensor() = default;

  // A zero-filled contiguous (row-major) tensor. Throws InputError on a negative extent.
  static Tensor zeros(DType dtype, std::vector<std::int64_t> shape);

  // A zero-filled tensor with explicit strides and offset over `storage_elements` elements.
  // Throws InputError if some logical element would fall outside the storage, if indexing
  // would overflow, or if the storage exceeds kMaxStorageElements.
  static Tensor strided(DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                        std::int64_t offset, std::int64_t storage_elements);

  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::int64_t offset() const { return offset_; }
  std::int64_t dim(std::size_t i) const { return shape_.at(i); }
  std::int64_t numel() const;
  std::int64_t storage_elements() const { return static_cast<std::int64_t>(storage_.size() / dtype_size(dtype_)); }
  bool is_contiguous() const;

  // Storage position of the logical element with row-major linear index `i`.
  std::int64_t storage_index(std::int64_t i) const { return row_major_ ? offset_ + i : strided_index(i); }

  // Raw bits (zero-extended) and value of the logical element with row-major index `i`.
  std::uint64_t bits_at(std::int64_t i) const {
    std::uint64_t bits = 0;
    std::memcpy(&bits, storage_.data() + static_cast<std::size_t>(storage_index(i)) * width_, width_);
    return bits;
  }
  void set_bits(std::int64_t i, std::uint64_t bits) {
    std::memcpy(storage_.data() + static_cast<std::size_t>(storage_index(i)) * width_, &bits, width_);
  }
  double value_at(std::int64_t i) const;
  // Stores v rounded to the dtype, to nearest even: f32 and f16 directly from the double, bf16
  // through float32.
  void set_value(std::int64_t i, double v);

  // Whole storage as raw bits, padding included (for "was this buffer touched?" checks).
  std::span<const std::byte> storage_bytes() const { return storage_; }
  std::span<std::byte> storage_bytes() { return storage_; }
  // Typed pointer to storage element 0 (not to the offset). T must match the dtype's size.
  template <class T>
  T* storage() {
    return reinterpret_cast<T*>(storage_.data());
  }
  template <class T>
  const T* storage() const {
    return reinterpret_cast<const T*>(storage_.data());
  }

  // A contiguous row-major copy of the logical tensor.
  Tensor contiguous() const;
  // Logical rows [begin, end) of a tensor of rank >= 1, as a contiguous tensor.
  Tensor rows(std::int64_t begin, std::int64_t end) const;
  // All logical values as doubles, row-major.
  std::vector<double> values() const;

 private:
  DType dtype_ = DType::f32;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;
  std::int64_t offset_ = 0;
  std::vector<std::byte> storage_;
  // Derived from the above at construction (shape, strides and dtype never change after it):
  // the element width in bytes, and whether the strides are row-major (element i at offset_ + i).
  std::size_t width_ = 4;
  bool row_major_ = true;

  std::int64_t strided_index(std::int64_t i) const;
};

inline double Tensor::value_at(std::int64_t i) const {
  const std::uint64_t bits = bits_at(i);
  switch (dtype_) {
    case DType::f32:
      return bits_float(static_cast<std::uint32_t>(bits));
    case DType::bf16:
      return bf16_to_float(static_cast<std::uint16_t>(bits));
    case DType::f16:
      return f16_to_float(static_cast<std::uint16_t>(bits));
    case DType::f64: {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
  }
  return 0.0;
}

inline void Tensor::set_value(std::int64_t i, double v) {
  switch (dtype_) {
    case DType::f32:
      set_bits(i, float_bits(static_cast<float>(v)));
      break;
    case DType::bf16:
      set_bits(i, bf16_from_float_rne(static_cast<float>(v)));
      break;
    case DType::f16:
      set_bits(i, f16_from_double_rne(v));
      break;
    case DType::f64: {
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      set_bits(i, bits);
      break;
    }
  }
}

// A shape, or an index, as messages write it: "[2, 3, 4]".
std::string shape_text(const std::vector<std::int64_t>& shape);

}  // namespace parity
