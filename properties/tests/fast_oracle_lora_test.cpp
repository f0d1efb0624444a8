// The fast accurate LoRA oracle (oracles/lora_fast.hpp): the same bits with PARITY_THREADS=1
// and =2; every element within its own stated bound of the 133-bit LoraMpOracle (whose own
// rounding is in its oracle_err too) on generated operands that are well conditioned,
// cancelling, spread over a wide exponent range, or float32 subnormals; the bound a few
// ulps where the problem is well conditioned; and the kernel-side fields (abs_sum, peak,
// underflow) those of LoraOracle<double>; x, W or A that are not float32 values refused; a
// selection of outputs the same bits as every output.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/core/thread_count.hpp>
#include <parity/oracles/lora.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>

namespace parity {
namespace {

using oracles::Estimate;

enum class Kind { well_conditioned, cancelling, wide_exponents, subnormal };

// n float32 values of the kind, as doubles.
std::vector<double> floats(Kind kind, std::size_t n) {
  int lo = -3, hi = 3;
  if (kind == Kind::wide_exponents) lo = -40, hi = 40;
  std::vector<double> v(n);
  for (double& x : v) {
    const auto m = *rc::gen::inRange<std::uint32_t>(1, 1u << 23);
    const bool neg = kind != Kind::well_conditioned && *rc::gen::arbitrary<bool>();
    const double mag = kind == Kind::subnormal
                           ? std::ldexp(static_cast<double>(m), -149)
                           : std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -23), *rc::gen::inRange(lo, hi + 1));
    x = static_cast<double>(static_cast<float>(neg ? -mag : mag));
  }
  return v;
}

struct Operands {
  std::vector<double> x, W, A, B, G;
  oracles::LoraOperands op;
};

// For `cancelling`, the second half of every row of W and A is minus the first while x's
// repeats its own, and one element of each x row is perturbed: y and h nearly vanish.
void make_cancelling(std::vector<double>& m, std::int64_t rows, std::int64_t cols, double sign) {
  const std::int64_t h = cols / 2;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t k = 0; k < h; ++k) m[i * cols + h + k] = sign * m[i * cols + k];
}

void generate(Operands& o, Kind kind, std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  // The subnormal kind has subnormal x and W and ordinary A, B, G: products stay normal.
  const Kind other = kind == Kind::subnormal ? Kind::well_conditioned : kind;
  o.x = floats(kind, T * K);
  o.W = floats(kind, N * K);
  o.A = floats(other, r * K);
  o.B = floats(other, N * r);
  o.G = floats(other, T * N);
  if (kind == Kind::cancelling && K >= 4) {
    make_cancelling(o.x, T, K, 1.0);
    make_cancelling(o.W, N, K, -1.0);
    make_cancelling(o.A, r, K, -1.0);
    for (std::int64_t t = 0; t < T; ++t) o.x[t * K + K - 1] = std::ldexp(o.x[t * K + K - 1], -20);
  }
  o.op = {T, N, K, r, o.x, o.W, o.A, o.B, o.G, *rc::gen::element(2.0, static_cast<double>(0.70710677f))};
}

bool same_bits(const Estimate<double>& a, const Estimate<double>& b) {
  return std::memcmp(&a.value, &b.value, sizeof(double)) == 0 &&
         std::memcmp(&a.oracle_err, &b.oracle_err, sizeof(double)) == 0 && a.abs_sum == b.abs_sum && a.peak == b.peak &&
         std::string(a.peak_at) == b.peak_at && a.underflow == b.underflow;
}

// Calls f(name, rows, cols, element) for the four outputs of a LoRA oracle-like object.
template <class O, class F>
void each_output(const oracles::LoraOperands& op, const O& o, F&& f) {
  f("y", op.T, op.N, [&](std::int64_t i, std::int64_t j) { return o.y(i, j); });
  f("dx", op.T, op.K, [&](std::int64_t i, std::int64_t j) { return o.dx(i, j); });
  f("dA", op.r, op.K, [&](std::int64_t i, std::int64_t j) { return o.dA(i, j); });
  f("dB", op.N, op.r, [&](std::int64_t i, std::int64_t j) { return o.dB(i, j); });
}

std::string g17(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

double rel(double a, double b) { return a == b ? 0 : std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b)); }

void check_against_multiprecision(Kind kind) {
  Operands o;
  generate(o, kind, *rc::gen::inRange(1, 5), *rc::gen::inRange(1, 25), *rc::gen::inRange(1, 90),
           *rc::gen::inRange(1, 5));
  const oracles::LoraFastOracle fast(o.op);
  const oracles::LoraMpOracle mp(o.op);
  const oracles::LoraOracle<double> plain(o.op);
  std::int64_t checked = 0;
  each_output(o.op, fast, [&](const char* name, std::int64_t rows, std::int64_t cols, auto fast_at) {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const Estimate<double> f = fast_at(i, j);
        const std::string where = std::string(name) + "(" + std::to_string(i) + "," + std::to_string(j) + ")";
        Estimate<double> m, p;
        if (name[0] == 'y') m = mp.y(i, j), p = plain.y(i, j);
        else if (name[1] == 'x') m = mp.dx(i, j), p = plain.dx(i, j);
        else if (name[1] == 'A') m = mp.dA(i, j), p = plain.dA(i, j);
        else m = mp.dB(i, j), p = plain.dB(i, j);
        RC_ASSERT(std::isfinite(f.oracle_err));
        const double diff = std::fabs(f.value - m.value);
        if (diff > f.oracle_err + m.oracle_err)
          RC_FAIL(where + ": fast " + g17(f.value) + " vs mp " + g17(m.value) + ", |diff| " + g17(diff) + " > bounds " +
                  g17(f.oracle_err) + " + " + g17(m.oracle_err));
        if (kind == Kind::well_conditioned) RC_ASSERT(f.oracle_err <= 0x1p-50 * std::fabs(m.value));
        RC_ASSERT(rel(f.abs_sum, p.abs_sum) < 1e-12);
        RC_ASSERT(rel(f.peak, p.peak) < 1e-12);
        RC_ASSERT(rel(f.underflow, p.underflow) < 1e-12);
        ++checked;
      }
  });
  RC_ASSERT(checked > 0);
}

RC_GTEST_PROP(LoraFastOracle, WithinBoundOfMultiprecisionWellConditioned, ()) {
  check_against_multiprecision(Kind::well_conditioned);
}
RC_GTEST_PROP(LoraFastOracle, WithinBoundOfMultiprecisionCancelling, ()) {
  check_against_multiprecision(Kind::cancelling);
}
RC_GTEST_PROP(LoraFastOracle, WithinBoundOfMultiprecisionWideExponents, ()) {
  check_against_multiprecision(Kind::wide_exponents);
}
RC_GTEST_PROP(LoraFastOracle, WithinBoundOfMultiprecisionSubnormal, ()) {
  check_against_multiprecision(Kind::subnormal);
}

// x, W and A must hold float32 values (their products are summed as exact); B need not.
TEST(LoraFastOracle, RefusesXWOrAThatIsNotFloat32) {
  std::vector<double> x{1, 2}, W{3, 4, 5, 6}, A{1, -1}, B{0.1, 0.2};
  const oracles::LoraOperands op{1, 2, 2, 1, x, W, A, B, {}, 0.5};
  EXPECT_DOUBLE_EQ(oracles::LoraFastOracle(op).y(0, 1).value, 17 + 0.5 * 0.2 * -1);
  for (std::vector<double>* v : {&x, &W, &A}) {
    const double saved = (*v)[1];
    (*v)[1] = 0.1;
    EXPECT_THROW(oracles::LoraFastOracle{op}, std::invalid_argument);
    (*v)[1] = saved;
  }
}

// Float32 values in [-0.5, 0.5) from a 64-bit LCG seeded with `seed`, every operand filled.
Operands lcg_operands(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r, std::uint64_t seed,
                      double scale) {
  Operands o;
  o.x.resize(T * K), o.W.resize(N * K), o.A.resize(r * K), o.B.resize(N * r), o.G.resize(T * N);
  std::uint64_t state = seed;
  for (auto* v : {&o.x, &o.W, &o.A, &o.B, &o.G})
    for (double& e : *v) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      e = static_cast<double>(static_cast<float>(static_cast<double>(state >> 11) * 0x1p-53 - 0.5));
    }
  o.op = {T, N, K, r, o.x, o.W, o.A, o.B, o.G, scale};
  return o;
}

// The same bits with one and two threads, through PARITY_THREADS, at a shape whose every
// kernel has several chunks (N, K above one block each).
TEST(LoraFastOracle, SameBitsWithOneAndTwoThreads) {
  const std::int64_t T = 7, N = 300, K = 260, r = 4;
  const Operands o = lcg_operands(T, N, K, r, 12345, 2.0);
  const oracles::LoraOperands& op = o.op;
  const char* saved = std::getenv("PARITY_THREADS");
  const std::string restore = saved ? saved : "";
  setenv("PARITY_THREADS", "1", 1);
  ASSERT_EQ(thread_count(), 1);
  const oracles::LoraFastOracle one(op);
  setenv("PARITY_THREADS", "2", 1);
  ASSERT_EQ(thread_count(), 2);
  const oracles::LoraFastOracle two(op);
  if (saved) setenv("PARITY_THREADS", restore.c_str(), 1);
  else unsetenv("PARITY_THREADS");
  std::int64_t compared = 0;
  each_output(op, one, [&](const char* name, std::int64_t rows, std::int64_t cols, auto one_at) {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        Estimate<double> b;
        if (name[0] == 'y') b = two.y(i, j);
        else if (name[1] == 'x') b = two.dx(i, j);
        else if (name[1] == 'A') b = two.dA(i, j);
        else b = two.dB(i, j);
        ASSERT_TRUE(same_bits(one_at(i, j), b)) << name << "(" << i << "," << j << ")";
        ++compared;
      }
  });
  EXPECT_EQ(compared, T * N + T * K + r * K + N * r);
}

// Each selection of outputs evaluates its outputs to the same bits as every output at once,
// and refuses a read of an output it left out or of an element outside an output.
TEST(LoraFastOracle, SelectedOutputsAreTheSameBitsAndOthersAreRefused) {
  using Outputs = oracles::LoraFastOracle::Outputs;
  const std::int64_t T = 5, N = 9, K = 70, r = 3;
  const Operands o = lcg_operands(T, N, K, r, 777, 0.5);
  const oracles::LoraOperands& op = o.op;
  const oracles::LoraFastOracle all(op);
  struct Selection {
    Outputs outputs;
    const char* evaluated;  // the first letters after 'd' ("y" for y) of the outputs it holds
  };
  for (const Selection sel :
       {Selection{Outputs::forward, "y"}, Selection{Outputs::backward, "xAB"}, Selection{Outputs::adapter, "AB"}}) {
    const oracles::LoraFastOracle some(op, sel.outputs);
    std::int64_t compared = 0, refused = 0;
    each_output(op, all, [&](const char* name, std::int64_t rows, std::int64_t cols, auto all_at) {
      const char key = name[0] == 'y' ? 'y' : name[1];
      const bool held = std::string(sel.evaluated).find(key) != std::string::npos;
      auto some_at = [&](std::int64_t i, std::int64_t j) {
        return key == 'y' ? some.y(i, j) : key == 'x' ? some.dx(i, j) : key == 'A' ? some.dA(i, j) : some.dB(i, j);
      };
      if (!held) {
        EXPECT_THROW(some_at(0, 0), std::logic_error) << name;
        ++refused;
        return;
      }
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          ASSERT_TRUE(same_bits(all_at(i, j), some_at(i, j))) << name << "(" << i << "," << j << ")";
          ++compared;
        }
    });
    EXPECT_GT(compared, 0);
    EXPECT_EQ(refused, 4 - static_cast<std::int64_t>(std::string(sel.evaluated).size()));
  }
  EXPECT_THROW(all.y(0, N), std::logic_error);  // not y(1, 0)
  EXPECT_THROW(all.dB(N, 0), std::logic_error);
  EXPECT_THROW(all.dx(-1, 0), std::logic_error);
}

}  // namespace
}  // namespace parity
