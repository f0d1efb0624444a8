// The LoRA host twin (LoraHost, vectorised through fma_chain.hpp) equals the per-element
// arithmetic definition of lora_arith.cuh bit for bit: y, dx, dA and dB, on every instruction
// set this CPU has (portable, AVX2, AVX-512) and with one and two threads, over odd shapes
// (1, primes, one past and one short of the 32-column panels and the 6- and 12-row tiles),
// transposed / padded / offset layouts of every operand, cancelling terms (so that any other
// summation order changes the rounded outputs), ±0, ±Inf, NaN and subnormals; for the
// kernel's own policy and for policies that change the multiply-add (the scalar kernel) or
// split the base reduction. A definition summing in another order is shown to differ on the
// same cases, so the comparison can tell.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/isa.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/tensor.hpp>
#include <parity/ops/lora_forward/lora_arith.cuh>
#include <parity/ops/lora_forward/lora_host.hpp>

namespace parity::ops::lora_forward {
namespace {

using LoraInputs = LoraOperands;

// A policy whose multiply-add rounds every partial sum to bf16 (as a mismatch probe does):
// the twin then runs the scalar kernel.
struct Bf16Steps : StandardArithmetic {
  static float mac(float acc, float a, float b) { return round_through_bf16(arith::mac(acc, a, b)); }
};
static_assert(kKeepsKernelMac<StandardArithmetic> && !kKeepsKernelMac<Bf16Steps>);

// A policy that truncates the outputs to bf16 (as probe-truncating-bf16 does): y's last step then
// runs element by element, not through fma_round.
struct Truncating : StandardArithmetic {
  static std::uint16_t round_output(float v) { return bf16_from_float_truncate(v); }
};
static_assert(kKeepsKernelRounding<StandardArithmetic> && !kKeepsKernelRounding<Truncating>);

// A policy that splits the base reduction at K / 2 whenever K > 1.
struct SplitBase : StandardArithmetic {
  static bool split_base_reduction(std::int64_t, std::int64_t K) { return K > 1; }
};

// The per-element definition (lora_arith.cuh's comment), read through Tensor::value_at, each
// output one chain from 0. `reversed_base`: the base chain of y runs k descending instead.
template <class Arith>
struct Definition {
  const LoraInputs& in;
  bool reversed_base = false;

  float x(std::int64_t t, std::int64_t k) const { return value(in.x, t, k); }
  float W(std::int64_t n, std::int64_t k) const { return value(in.W, n, k); }
  float A(std::int64_t j, std::int64_t k) const { return value(in.A, j, k); }
  float B(std::int64_t n, std::int64_t j) const { return value(in.B, n, j); }
  static float value(const Tensor& t, std::int64_t i, std::int64_t j) {
    return static_cast<float>(t.value_at(i * t.dim(1) + j));
  }
  std::int64_t T() const { return in.x.dim(0); }
  std::int64_t K() const { return in.x.dim(1); }
  std::int64_t N() const { return in.W.dim(0); }
  std::int64_t r() const { return in.A.dim(0); }
  float s() const { return Arith::effective_scale(in.scale); }

  float h(std::int64_t t, std::int64_t j) const {
    float acc = 0.0f;
    for (std::int64_t k = 0; k < K(); ++k) acc = Arith::mac(acc, x(t, k), A(j, k));
    return acc;
  }
  float base(std::int64_t t, std::int64_t n, std::int64_t k0, std::int64_t k1) const {
    float acc = 0.0f;
    for (std::int64_t i = 0; i < k1 - k0; ++i) {
      const std::int64_t k = reversed_base ? k1 - 1 - i : k0 + i;
      acc = Arith::mac(acc, x(t, k), W(n, k));
    }
    return acc;
  }
  Tensor y() const {
    Tensor out = Tensor::zeros(DType::bf16, {T(), N()});
    const bool split = Arith::split_base_reduction(T(), K());
    for (std::int64_t t = 0; t < T(); ++t) {
      std::vector<float> ht(static_cast<std::size_t>(r()));
      for (std::int64_t j = 0; j < r(); ++j) ht[j] = h(t, j);
      for (std::int64_t n = 0; n < N(); ++n) {
        const float b = split ? base(t, n, 0, K() / 2) + base(t, n, K() / 2, K()) : base(t, n, 0, K());
        float low = 0.0f;
        for (std::int64_t j = 0; j < r(); ++j) low = Arith::mac(low, ht[j], B(n, j));
        out.set_bits(t * N() + n, Arith::round_output(arith::forward_sum(b, low, s())));
      }
    }
    return out;
  }
  LoraGradients backward(const Tensor& dy) const {
    const auto g = [&](std::int64_t t, std::int64_t n) { return value(dy, t, n); };
    std::vector<float> hv(static_cast<std::size_t>(T() * r())), dh(hv.size());
    for (std::int64_t t = 0; t < T(); ++t)
      for (std::int64_t j = 0; j < r(); ++j) {
        hv[t * r() + j] = h(t, j);
        float acc = 0.0f;
        for (std::int64_t n = 0; n < N(); ++n) acc = Arith::mac(acc, g(t, n), B(n, j));
        dh[t * r() + j] = arith::scaled(s(), acc);
      }
    LoraGradients out{Tensor::zeros(DType::bf16, {T(), K()}), Tensor::zeros(DType::f32, {r(), K()}),
                      Tensor::zeros(DType::f32, {N(), r()})};
    for (std::int64_t t = 0; t < T(); ++t)
      for (std::int64_t k = 0; k < K(); ++k) {
        float acc = 0.0f;
        for (std::int64_t n = 0; n < N(); ++n) acc = Arith::mac(acc, g(t, n), W(n, k));
        for (std::int64_t j = 0; j < r(); ++j) acc = Arith::mac(acc, dh[t * r() + j], A(j, k));
        out.dx.set_bits(t * K() + k, Arith::round_output(acc));
      }
    for (std::int64_t j = 0; j < r(); ++j)
      for (std::int64_t k = 0; k < K(); ++k) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < T(); ++t) acc = Arith::mac(acc, dh[t * r() + j], x(t, k));
        out.dA.set_bits(j * K() + k, float_bits(acc));
      }
    for (std::int64_t n = 0; n < N(); ++n)
      for (std::int64_t j = 0; j < r(); ++j) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < T(); ++t) acc = Arith::mac(acc, g(t, n), hv[t * r() + j]);
        out.dB.set_bits(n * r() + j, float_bits(arith::scaled(s(), acc)));
      }
    return out;
  }
};

enum class Values { wide, special };

struct Shape {
  std::int64_t T, N, K, r;
  Values values = Values::wide;
  bool strided = false;
};

std::string label(const Shape& s) {
  return "T" + std::to_string(s.T) + " N" + std::to_string(s.N) + " K" + std::to_string(s.K) + " r" +
         std::to_string(s.r) + (s.values == Values::special ? " special" : "") + (s.strided ? " strided" : "");
}

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = {
      {1, 1, 1, 1},
      {1, 33, 17, 3},
      {2, 31, 33, 1},
      {3, 32, 64, 2, Values::special},
      {5, 65, 100, 16},
      {6, 64, 5, 7, Values::wide, true},
      {7, 1, 300, 2},
      {11, 97, 31, 12, Values::special, true},
      {12, 63, 129, 5},
      {13, 96, 1, 1},
      {25, 130, 47, 17, Values::wide, true},
      {33, 161, 257, 16},
      {70, 100, 384, 16, Values::special},
  };
  return all;
}

// Float32 bits with a random sign, an exponent in [127 - spread, 127 + spread] and a random
// significand; for Values::special, one element in eight is a special value instead.
std::uint32_t draw_bits(std::mt19937& rng, Values values, int spread) {
  static const std::uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                           0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000, 0x7F7FFFFF};
  if (values == Values::special && rng() % 8 == 0) return specials[rng() % std::size(specials)];
  const std::uint32_t exponent = 127 - spread + rng() % (2 * spread + 1);
  return (rng() & 0x80000000u) | exponent << 23 | (rng() & 0x7FFFFFu);
}

Tensor filled(DType dtype, std::int64_t rows, std::int64_t cols, std::mt19937& rng, Values values, int spread) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    const std::uint32_t bits = draw_bits(rng, values, spread);
    if (dtype == DType::bf16) t.set_bits(i, bits >> 16);
    else t.set_bits(i, bits);
  }
  return t;
}

struct Operands {
  LoraInputs in;
  Tensor dy;
};

Operands operands(const Shape& s, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const int spread = 4;
  LoraInputs in{
      filled(DType::bf16, s.T, s.K, rng, s.values, spread), filled(DType::bf16, s.N, s.K, rng, s.values, spread),
      filled(DType::f32, s.r, s.K, rng, s.values, spread), filled(DType::f32, s.N, s.r, rng, s.values, spread),
      0.001f};  // s: the low-rank path a small part of y, so its base shows
  Tensor dy = filled(DType::bf16, s.T, s.N, rng, s.values, spread);
  // A cancelling pair in each row of x W^T: x[t][0] = -x[t][K-1] = ±2^22, W[n][K-1] = W[n][0]
  // (and A[j][0] = A[j][K-1] = 0, so h is plain). The pair cancels exactly, so y's base is what
  // the middle terms leave after being rounded against 2^22 |W[n][0]|: a different order leaves
  // different bits.
  if (s.K >= 3)
    for (std::int64_t t = 0; t < s.T; ++t) {
      const std::uint16_t big = (rng() & 1 ? 0x8000 : 0) | 0x4A80;  // ±2^22 in bf16
      in.x.set_bits(t * s.K, big);
      in.x.set_bits(t * s.K + s.K - 1, big ^ 0x8000);
      for (std::int64_t n = 0; n < s.N; ++n) in.W.set_bits(n * s.K + s.K - 1, in.W.bits_at(n * s.K));
      for (std::int64_t j = 0; j < s.r; ++j) {
        in.A.set_bits(j * s.K, 0);
        in.A.set_bits(j * s.K + s.K - 1, 0);
      }
    }
  if (s.strided) {
    in.x = Layout{true, 3, 5}.place(in.x);
    in.W = Layout{false, 7, 2}.place(in.W);
    in.A = Layout{true, 0, 0}.place(in.A);
    in.B = Layout{true, 1, 11}.place(in.B);
    dy = Layout{false, 0, 3}.place(dy);
  }
  return {std::move(in), std::move(dy)};
}

// Positions where two tensors of one dtype and shape differ: bits, NaN equal to any NaN.
std::int64_t differences(const Tensor& a, const Tensor& b) {
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    const bool both_nan = std::isnan(a.value_at(i)) && std::isnan(b.value_at(i));
    n += !both_nan && a.bits_at(i) != b.bits_at(i);
  }
  return n;
}

std::int64_t nonzero(const Tensor& t) {
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < t.numel(); ++i) n += t.value_at(i) != 0.0;
  return n;
}

class Threads {
 public:
  explicit Threads(const char* n) { setenv("PARITY_THREADS", n, 1); }
  ~Threads() { unsetenv("PARITY_THREADS"); }
};

std::vector<Isa> isas() {
  std::vector<Isa> all;
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512})
    if (isa <= best_isa()) all.push_back(isa);
  return all;
}

template <class Arith>
void expect_definition_bits() {
  std::uint32_t seed = 1;
  for (const Shape& s : shapes()) {
    const Operands ops = operands(s, seed++);
    const Definition<Arith> def{ops.in};
    const Tensor y = def.y();
    const LoraGradients g = def.backward(ops.dy);
    ASSERT_GT(nonzero(y), 0) << label(s) << ": degenerate y";
    ASSERT_GT(nonzero(g.dA), 0) << label(s) << ": degenerate dA";
    for (const Isa isa : isas())
      for (const char* threads : {"1", "2"}) {
        const Threads with(threads);
        const LoraHost<Arith> twin(isa);
        const LoraGradients tg = twin.backward(ops.in, ops.dy);
        const std::string where = label(s) + ", " + isa_name(isa) + ", " + threads + " thread(s)";
        EXPECT_EQ(differences(twin.forward(ops.in), y), 0) << "y differs: " << where;
        EXPECT_EQ(differences(tg.dx, g.dx), 0) << "dx differs: " << where;
        EXPECT_EQ(differences(tg.dA, g.dA), 0) << "dA differs: " << where;
        EXPECT_EQ(differences(tg.dB, g.dB), 0) << "dB differs: " << where;
      }
  }
}

TEST(LoraHost, EqualsThePerElementDefinitionBitwise) { expect_definition_bits<StandardArithmetic>(); }
TEST(LoraHost, ScalarKernelEqualsItsDefinitionBitwise) { expect_definition_bits<Bf16Steps>(); }
TEST(LoraHost, SplitBaseEqualsItsDefinitionBitwise) { expect_definition_bits<SplitBase>(); }
TEST(LoraHost, TruncatingOutputEqualsItsDefinitionBitwise) { expect_definition_bits<Truncating>(); }

// The comparison can tell an order apart: a definition whose y base chains run k descending
// differs from the twin in y on these cases (in at least one element of every shape with
// K >= 16 and at least 256 outputs).
// Shapes with special values are skipped: their Inf and NaN rows hide the order.
TEST(LoraHost, AnotherSummationOrderIsTold) {
  std::uint32_t seed = 1;
  for (const Shape& s : shapes()) {
    const Operands ops = operands(s, seed++);
    if (s.K < 16 || s.T * s.N < 256 || s.values == Values::special) continue;
    const Definition<StandardArithmetic> reordered{ops.in, true};
    const LoraHost<StandardArithmetic> twin;
    const std::int64_t d = differences(twin.forward(ops.in), reordered.y());
    std::printf("%s: %lld of %lld y elements differ\n", label(s).c_str(), static_cast<long long>(d),
                static_cast<long long>(s.T * s.N));
    EXPECT_GT(d, 0) << label(s);
  }
}

}  // namespace
}  // namespace parity::ops::lora_forward
