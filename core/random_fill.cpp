#include <parity/core/random_fill.hpp>

#include <cmath>

#include <parity/core/detmath.hpp>
#include <parity/core/isa.hpp>
#include <parity/core/philox.hpp>
#include <parity/core/random_fill_kernels.hpp>

namespace parity {

PARITY_FMA_CLONES double philox_normal(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  const auto w = philox_words(seed, stream, index);
  const double u1 = uniform_open0(w[0], w[1]);
  const double u2 = uniform_open0(w[2], w[3]) - 0x1p-53;  // [0, 1)
  double s, c;
  detmath::sincos_2pi(u2, &s, &c);
  return std::sqrt(-2.0 * detmath::log(u1)) * c;
}

void philox_normals(std::uint64_t seed, std::uint32_t stream, std::uint64_t first, std::int64_t count, double* out) {
  static const bool vector = best_isa() == Isa::avx512 && __builtin_cpu_supports("avx512dq");
  std::int64_t i = 0;
  if (vector) {
    detail::philox_normals_avx512(seed, stream, first, count / 8, out);
    i = count / 8 * 8;
  }
  for (; i < count; ++i) out[i] = philox_normal(seed, stream, first + static_cast<std::uint64_t>(i));
}

double philox_uniform(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  const auto w = philox_words(seed, stream, index);
  return uniform_open0(w[0], w[1]);
}

std::uint64_t philox_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  const auto w = philox_words(seed, stream, index);
  return (static_cast<std::uint64_t>(w[0]) << 32) | w[1];
}

}  // namespace parity
