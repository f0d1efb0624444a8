#include <parity/core/tensor.hpp>

#include <cstring>
#include <string>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>
#include <parity/core/f16.hpp>

namespace parity {
namespace {

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n)) throw InputError("tensor extents overflow 64-bit indexing");
  return n;
}

void require_extents(const std::vector<std::int64_t>& shape) {
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] < 0)
      throw InputError("tensor extent " + std::to_string(i) + " is negative (" + std::to_string(shape[i]) + ")");
}

// f(k, pos) for the logical elements k = 0, 1, ... of a tensor of `shape`, `strides` and
// storage `offset` in row-major order, pos each one's storage position: an odometer over the
// indices, no division per element.
template <class F>
void for_each_position(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                       std::int64_t offset, F f) {
  const std::size_t rank = shape.size();
  for (std::int64_t d : shape)
    if (d == 0) return;
  if (rank == 0) return f(std::int64_t{0}, offset);
  const std::int64_t inner = shape[rank - 1], step = strides[rank - 1];
  std::vector<std::int64_t> index(rank, 0);
  std::int64_t base = offset;
  for (std::int64_t k = 0;;) {
    for (std::int64_t j = 0; j < inner; ++j) f(k++, base + j * step);
    std::size_t d = rank - 1;
    while (d-- > 0) {
      base += strides[d];
      if (++index[d] < shape[d]) break;
      base -= shape[d] * strides[d];
      index[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) return;
  }
}

}  // namespace

Tensor Tensor::zeros(DType dtype, std::vector<std::int64_t> shape) {
  require_extents(shape);
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  const std::int64_t n = product(shape);
  return strided(dtype, std::move(shape), std::move(strides), 0, n);
}

Tensor Tensor::strided(DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                       std::int64_t offset, std::int64_t storage_elements) {
  require_extents(shape);
  if (strides.size() != shape.size()) throw InputError("tensor strides and shape differ in rank");
  if (offset < 0) throw InputError("tensor storage offset is negative");
  std::int64_t last = offset, span = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (strides[i] < 0) throw InputError("tensor stride is negative");
    if (shape[i] > 0 &&
        (__builtin_mul_overflow(shape[i] - 1, strides[i], &span) || __builtin_add_overflow(last, span, &last)))
      throw InputError("tensor extents and strides overflow 64-bit indexing");
  }
  if (product(shape) > 0 && last >= storage_elements) throw InputError("tensor elements fall outside its storage");
  if (storage_elements > kMaxStorageElements)
    throw InputError("tensor storage of " + std::to_string(storage_elements) + " elements exceeds parity's limit of " +
                     std::to_string(kMaxStorageElements));
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.strides_ = std::move(strides);
  t.offset_ = offset;
  t.storage_.assign(static_cast<std::size_t>(storage_elements) * dtype_size(dtype), std::byte{0});
  t.width_ = dtype_size(dtype);
  t.row_major_ = true;
  std::int64_t expected = 1;
  for (std::size_t i = t.shape_.size(); i-- > 0;) {
    if (t.shape_[i] != 1 && t.strides_[i] != expected) t.row_major_ = false;
    expected *= t.shape_[i];
  }
  return t;
}

std::int64_t Tensor::numel() const { return product(shape_); }

bool Tensor::is_contiguous() const { return row_major_ && offset_ == 0; }

std::int64_t Tensor::strided_index(std::int64_t i) const {
  std::int64_t pos = offset_;
  for (std::size_t d = shape_.size(); d-- > 0;) {
    pos += (i % shape_[d]) * strides_[d];
    i /= shape_[d];
  }
  return pos;
}

Tensor Tensor::contiguous() const {
  Tensor out = zeros(dtype_, shape_);
  const std::size_t width = dtype_size(dtype_);
  if (is_contiguous()) {
    if (!out.storage_.empty()) std::memcpy(out.storage_.data(), storage_.data(), out.storage_.size());
    return out;
  }
  for_each_position(shape_, strides_, offset_, [&](std::int64_t k, std::int64_t pos) {
    std::memcpy(out.storage_.data() + static_cast<std::size_t>(k) * width,
                storage_.data() + static_cast<std::size_t>(pos) * width, width);
  });
  return out;
}

Tensor Tensor::rows(std::int64_t begin, std::int64_t end) const {
  if (shape_.empty() || begin < 0 || end > shape_[0] || begin > end)
    throw InputError("row range [" + std::to_string(begin) + ", " + std::to_string(end) + ") is outside the tensor");
  std::vector<std::int64_t> shape = shape_;
  shape[0] = end - begin;
  Tensor out = zeros(dtype_, shape);
  const std::size_t width = dtype_size(dtype_);
  for_each_position(shape, strides_, offset_ + begin * strides_[0], [&](std::int64_t k, std::int64_t pos) {
    std::memcpy(out.storage_.data() + static_cast<std::size_t>(k) * width,
                storage_.data() + static_cast<std::size_t>(pos) * width, width);
  });
  return out;
}

std::vector<double> Tensor::values() const {
  std::vector<double> v(static_cast<std::size_t>(numel()));
  const auto each = [&](auto convert) {
    for_each_position(shape_, strides_, offset_,
                      [&](std::int64_t k, std::int64_t pos) { v[static_cast<std::size_t>(k)] = convert(pos); });
  };
  switch (dtype_) {
    case DType::f32:
      each([this](std::int64_t pos) { return static_cast<double>(storage<float>()[pos]); });
      break;
    case DType::bf16:
      each([this](std::int64_t pos) { return static_cast<double>(bf16_to_float(storage<std::uint16_t>()[pos])); });
      break;
    case DType::f16:
      each([this](std::int64_t pos) { return static_cast<double>(f16_to_float(storage<std::uint16_t>()[pos])); });
      break;
    case DType::f64:
      each([this](std::int64_t pos) { return storage<double>()[pos]; });
      break;
  }
  return v;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace parity
