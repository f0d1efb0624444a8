// Eval::each (op_reference.hpp) in every real: each element written exactly once with what a plain
// loop writes, for any thread count, and MPFR's on the calling thread.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/oracles/multiprecision.hpp>

namespace parity::ops {
namespace {

// Past one chunk of rows (each's 2^12 elements), so the pool takes them where it runs.
constexpr std::int64_t kRows = 300, kCols = 50;

OpValues each_values() {
  OpValues v;
  v.shapes["y"] = {kRows, kCols};
  for (std::int64_t i = 0; i < kRows * kCols; ++i) v.inputs["x"].push_back(0.25 * static_cast<double>(i % 97) - 3);
  v.shapes["x"] = {kRows, kCols};
  return v;
}

// y = x * x + 1 through each, and the count of writes per element; `caller_only`: every call on
// this thread.
template <class R>
std::vector<R> square_plus_one(const OpValues& v, bool caller_only) {
  const Arithmetic arithmetic{};
  Eval<R> e(v, arithmetic);
  const auto x = e.input("x");
  auto y = e.output("y");
  std::vector<std::atomic<int>> writes(static_cast<std::size_t>(kRows * kCols));
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> elsewhere = false;
  e.each(kRows, kCols, [&](std::int64_t i, std::int64_t j) {
    y(i, j) = x(i, j) * x(i, j) + R(1);
    ++writes[static_cast<std::size_t>(i * kCols + j)];
    if (std::this_thread::get_id() != caller) elsewhere = true;
  });
  for (std::size_t i = 0; i < writes.size(); ++i) EXPECT_EQ(writes[i].load(), 1) << "element " << i;
  if (caller_only) {
    EXPECT_FALSE(elsewhere.load());
  }
  return e.outputs()["y"];
}

double value_of(double x) { return x; }
double value_of(const Bounded& x) { return x.value(); }
double value_of(const Filtered& x) { return x.value(); }
double value_of(const oracles::mp_real& x) { return static_cast<double>(x); }

template <class R>
void expect_each_is_the_loop(bool caller_only) {
  const OpValues v = each_values();
  for (const char* threads : {"1", "2", "5"}) {
    ::setenv("PARITY_THREADS", threads, 1);
    const std::vector<R> got = square_plus_one<R>(v, caller_only);
    ASSERT_EQ(std::ssize(got), kRows * kCols);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double x = v.inputs.at("x")[i];
      EXPECT_EQ(value_of(got[i]), x * x + 1) << "element " << i << " on " << threads << " threads";
    }
  }
  ::unsetenv("PARITY_THREADS");
}

TEST(EvalEach, WritesEveryElementOnceAsTheLoopDoes) {
  expect_each_is_the_loop<double>(false);
  expect_each_is_the_loop<Bounded>(false);
  expect_each_is_the_loop<Filtered>(false);
}

TEST(EvalEach, MultiprecisionRunsOnTheCallingThread) { expect_each_is_the_loop<oracles::mp_real>(true); }

}  // namespace
}  // namespace parity::ops
