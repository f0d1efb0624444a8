#include <parity/core/normal_tensor.hpp>

#include <cstring>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>
#include <parity/core/random_fill.hpp>

namespace parity {

Tensor normal_tensor(DType dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed, std::uint32_t stream,
                     double scale, std::uint32_t probe_stream, std::int64_t probe) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  std::vector<double> z(static_cast<std::size_t>(cols));
  for (std::int64_t r = 0; r < rows; ++r) {
    if (r == probe) philox_normals(seed, probe_stream, 0, cols, z.data());
    else philox_normals(seed, stream, static_cast<std::uint64_t>(r * cols), cols, z.data());
    const auto at = static_cast<std::size_t>(r * cols);
    for (std::size_t c = 0; c < z.size(); ++c) {
      const auto f = static_cast<float>(z[c] * scale);
      switch (dtype) {
        case DType::f32:
          t.storage<float>()[at + c] = f;
          break;
        case DType::bf16:
          t.storage<std::uint16_t>()[at + c] = bf16_from_float_rne(f);
          break;
        case DType::f16:
          t.storage<std::uint16_t>()[at + c] = f16_from_float_rne(f);
          break;
        case DType::f64:
          t.storage<double>()[at + c] = static_cast<double>(f);
          break;
      }
    }
  }
  return t;
}

Tensor normal_tensor_nd(DType dtype, const std::vector<std::int64_t>& shape, std::uint64_t seed, std::uint32_t stream,
                        double scale) {
  Tensor t = Tensor::zeros(dtype, shape);
  const Tensor flat = normal_tensor(dtype, 1, t.numel(), seed, stream, scale);
  std::memcpy(t.storage_bytes().data(), flat.storage_bytes().data(), flat.storage_bytes().size());
  return t;
}

}  // namespace parity
