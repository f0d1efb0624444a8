#include <parity/core/random_fill.hpp>

#include <cmath>

#include <parity/core/detmath.hpp>
#include <parity/core/isa.hpp>
#include <parity/core/philox.hpp>

namespace parity {

PARITY_FMA_CLONES double philox_normal(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  const auto w = philox_words(seed, stream, index);
  const double u1 = uniform_open0(w[0], w[1]);
  const double u2 = uniform_open0(w[2], w[3]) - 0x1p-53;  // [0, 1)
  double s, c;
  detmath::sincos_2pi(u2, &s, &c);
  return std::sqrt(-2.0 * detmath::log(u1)) * c;
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
