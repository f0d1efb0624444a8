// Reach cases (op_cases.hpp) and accuracy on a subset of rows (op_checks.hpp), on a toy op of
// the test's own: y = x * w row by row and colsum = the sum of x over the rows (an output not led
// by the row extent, as a weight gradient), with reach caps above its ordinary ones.
//   - one case in kReachEvery reaches, every other case is the case the declaration without
//     reach draws from the same random state, and reach cases stay within the reach caps;
//   - the contract admits a Case past the reach caps up to the framework's limits (kElementsLimit,
//     kWorkLimit) and refuses one past them naming case.dims;
//   - a user's cap (--max) sets an extent's max and its reach alike, and the caps reach_elements
//     and reach_work raise the reach cases' largest operand and work (never below the oracle's);
//   - forward_accuracy on a case past the oracle's caps checks the rows accuracy_rows draws
//     (reproducible, the probe row and the last among them), catches a subject wrong only at
//     reach sizes, names the outputs it cannot check, and discards a case of which one row alone
//     is past the caps.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops::reach_test {
namespace {

struct Reaching {
  static OpDecl declaration() {
    return {
        .name = "test_reach",
        .description = "y = x * w, colsum = sum over the rows of x",
        .extents = {{.name = "T", .max = 16, .thresholds = {8, 1000}, .limit = 8192, .reach = 4096},
                    {.name = "D", .max = 32, .thresholds = {16, 100}, .limit = 1024, .reach = 256}},
        .inputs = {{.name = "x", .shape = {"T", "D"}, .dtype_group = "act"},
                   {.name = "w", .shape = {"D"}, .dtype_group = "act", .mean = 1.0, .stddev = 0.1}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "act"},
                    {.name = "colsum", .shape = {"D"}, .dtype_group = "act"}},
        .params = {},
        .dtypes = {DType::f32},
        .row_extent = "T",
        .reduced_extents = {},
        .max_elements = 1024,
        .work = "T*D",
        .max_work = 1024,
        .reach_elements = std::int64_t{1} << 16,
        .reach_work = std::int64_t{1} << 16,
    };
  }
  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    const auto w = e.input("w");
    auto y = e.output("y");
    auto colsum = e.output("colsum");
    const std::int64_t T = e.extent("T"), D = e.extent("D");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < D; ++i) y(t, i) = x(t, i) * w(i);
    for (std::int64_t i = 0; i < D; ++i) colsum(i) = e.sum(T, [&](std::int64_t t) { return x(t, i); });
  }
};

const OpDef& op() {
  static const OpDef def = define_op<Reaching>();
  return def;
}

// y = x * w in float32, colsum summed in float32 over the rows in order; from `wrong_from` rows
// on, every y one float32 ulp in 2^-4 too large (a plan of large batches that is wrong).
class Kernel : public OpSubject {
 public:
  explicit Kernel(std::int64_t wrong_from = std::numeric_limits<std::int64_t>::max()) : wrong_from_(wrong_from) {}
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("w");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    Tensor y = Tensor::zeros(DType::f32, {T, D}), colsum = Tensor::zeros(DType::f32, {D});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i = 0; i < D; ++i) {
        float v = static_cast<float>(x.value_at(t * D + i)) * static_cast<float>(w.value_at(i));
        if (T >= wrong_from_) v *= 1.0625f;
        y.set_value(t * D + i, v);
      }
    for (std::int64_t i = 0; i < D; ++i) {
      float s = 0.0f;
      for (std::int64_t t = 0; t < T; ++t) s += static_cast<float>(x.value_at(t * D + i));
      colsum.set_value(i, s);
    }
    return {{"y", std::move(y)}, {"colsum", std::move(colsum)}};
  }

 private:
  std::int64_t wrong_from_;
};

Case the_case(std::int64_t T, std::int64_t D, std::int64_t probe_row = 0) {
  Case c = testing::case_of("test_reach", 7, {{"T", T}, {"D", D}}, {{"dtype.act", 32}});
  c.probe_row = probe_row;
  return c;
}

Case drawn(const OpDecl& d, std::uint64_t seed) { return op_case(d)(rc::Random(seed), 50).value(); }

TEST(OpReach, OneCaseInKReachEveryReachesAndTheOthersAreTheOrdinaryCases) {
  const OpDecl& d = op().decl;
  const OpDecl ordinary = without_reach(d);
  ASSERT_TRUE(has_reach(d));
  ASSERT_FALSE(has_reach(ordinary));
  constexpr int kCases = 3200;
  int reached = 0, beyond = 0;
  for (std::uint64_t seed = 1; seed <= kCases; ++seed) {
    const Case c = drawn(d, seed), plain = drawn(ordinary, seed);
    if (c == plain) {  // an ordinary case: within the ordinary maxima and caps
      EXPECT_LE(c.dim("T"), 16);
      EXPECT_LE(c.dim("D"), 32);
      EXPECT_TRUE(fits(d, c.dims, d.max_elements, d.max_work));
      continue;
    }
    ++reached;
    EXPECT_LE(c.dim("T"), 4096);
    EXPECT_LE(c.dim("D"), 256);
    EXPECT_TRUE(fits(d, c.dims, d.reach_elements, d.reach_work)) << c.dim("T") << " x " << c.dim("D");
    EXPECT_NO_THROW(check_contract(d, c));
    // D's draws: small (to min + 7), or past its max (max + 1, the threshold 100 and its
    // neighbours, its reach), never the thresholds up to max that the ordinary cases draw; the
    // fitting halves T alone here (2 rows of D <= 256 fit the reach caps).
    EXPECT_TRUE(c.dim("D") <= 8 || c.dim("D") > 32) << "D = " << c.dim("D");
    if (c.dim("T") > 16 || c.dim("D") > 32) ++beyond;
  }
  // Binomial(kCases, 1 / kReachEvery): four standard deviations either side of the mean.
  const double p = 1.0 / kReachEvery, mean = kCases * p, sd = std::sqrt(kCases * p * (1 - p));
  EXPECT_GE(reached, mean - 4 * sd);
  EXPECT_LE(reached, mean + 4 * sd);
  EXPECT_GT(beyond, reached / 2) << "reach cases past the ordinary maxima";
}

// An extent that reaches past its max is small (min to min + 7) in one reach case in ten and past
// its max in the other nine, so that both of the test op's extents lie past their max in about
// 81 reach cases in 100 (the many rows of the widest width that plans by size switch on), and
// each alone past its max in about 9. Under three small draws in ten: 49, 21 and 21, and 9 reach
// cases with no extent past its max.
TEST(OpReach, AnExtentThatReachesPastItsMaxIsSmallInOneReachCaseInTen) {
  const OpDecl& d = op().decl;
  const OpDecl ordinary = without_reach(d);
  constexpr int kCases = 3200;
  int reached = 0, small_T = 0, small_D = 0, both_past = 0;
  for (std::uint64_t seed = 1; seed <= kCases; ++seed) {
    const Case c = drawn(d, seed);
    if (c == drawn(ordinary, seed)) continue;
    ++reached;
    // The fitting halves T to at most 255 rows (2^16 elements of 256 columns): a T drawn past
    // 16 stays past it, and D is never halved.
    small_T += c.dim("T") <= 8;
    small_D += c.dim("D") <= 8;
    both_past += c.dim("T") > 16 && c.dim("D") > 32;
  }
  // Binomial(reached, p): four standard deviations either side of the mean.
  const auto within = [&](int count, double p, const char* what) {
    const double mean = reached * p, sd = std::sqrt(reached * p * (1 - p));
    EXPECT_GE(count, mean - 4 * sd) << what << ": " << count << " of " << reached;
    EXPECT_LE(count, mean + 4 * sd) << what << ": " << count << " of " << reached;
  };
  within(small_T, 0.1, "T small");
  within(small_D, 0.1, "D small");
  within(both_past, 0.81, "T and D past their max");
}

TEST(OpReach, TheContractAdmitsUpToTheLimitsAndRefusesPastThemNamingTheField) {
  const OpDecl& d = op().decl;
  EXPECT_NO_THROW(check_contract(d, the_case(255, 256)));  // 256 x 256 with the extra row
  // Past the reach caps (2^16), within the limits: a case drawn under a user's raised reach caps.
  EXPECT_NO_THROW(check_contract(d, the_case(8191, 1024)));
  OpDecl wide = d;  // T up to 2^20: the limits, not T's, refuse
  wide.extents[0].limit = std::int64_t{1} << 20;
  const auto wide_refusal = [&](const Case& c) { return input_error_message([&] { check_contract(wide, c); }, ""); };
  EXPECT_EQ(wide_refusal(the_case(65535, 1024)), "");  // 2^26 elements with the extra row
  EXPECT_NE(wide_refusal(the_case(65536, 1024)).find("case.dims: x would hold more than 67108864 elements"),
            std::string::npos)
      << wide_refusal(the_case(65536, 1024));
  wide.work = "T*T*D*D";  // the work alone refuses: (2049 x 1024)^2 > 2^40 (T + 1 in both factors)
  EXPECT_NE(wide_refusal(the_case(2048, 1024))
                .find("case.dims: the work T*T*D*D with one more T would be 4402342526976, more than 1099511627776"),
            std::string::npos)
      << wide_refusal(the_case(2048, 1024));
}

TEST(OpReach, ValidateRefusesAReachBelowItsMax) {
  OpDecl d = op().decl;
  d.extents[0].reach = 8;
  EXPECT_THROW(validate(d), std::logic_error);
  d = op().decl;
  d.reach_work = 512;
  EXPECT_THROW(validate(d), std::logic_error);
  d = op().decl;
  d.reach_elements = 512;
  EXPECT_THROW(validate(d), std::logic_error);
  EXPECT_NO_THROW(validate(op().decl));
}

// The largest T any call of the recording subject saw.
std::int64_t seen_T = 0;

// The most elements of x any call saw.
std::int64_t seen_elements = 0;

class Recording : public Kernel {
 public:
  OpOutputs run(const OpCall& call) override {
    seen_T = std::max(seen_T, call.input("x").dim(0));
    seen_elements = std::max(seen_elements, call.input("x").numel());
    return Kernel::run(call);
  }
};

const OpFamily& family() {
  static const OpFamily f(op(), [] {
    register_op_subject("test_reach", {.name = "recording", .backend = "host", .description = "y = x * w", .make = [] {
                                         return std::unique_ptr<OpSubject>(std::make_unique<Recording>());
                                       }});
  });
  return f;
}

TEST(OpReach, AUsersCapSetsTheMaxAndTheReach) {
  seen_T = 0;
  EXPECT_TRUE(family().run("recording", "repeatable", {.cases = 200}).passed);
  EXPECT_GT(seen_T, 16) << "no reach case past T's max";
  // A cap at the declared max: no larger T in any case.
  seen_T = 0;
  EXPECT_TRUE(family().run("recording", "repeatable", {.cases = 100, .max_extents = {{"T", 16}}}).passed);
  EXPECT_LE(seen_T, 16);
  // A cap above the reach: the reach cases may take it.
  seen_T = 0;
  EXPECT_TRUE(family().run("recording", "repeatable", {.cases = 100, .max_extents = {{"T", 8000}}}).passed);
  EXPECT_GT(seen_T, 16);
  EXPECT_LE(seen_T, 8000);
}

TEST(OpReach, AUsersReachCapsRaiseTheReachCasesLargestOperandAndWork) {
  const auto caps = family().extent_caps();
  ASSERT_EQ(caps.size(), 4u);
  EXPECT_EQ(caps[2].extent, kReachElementsCap);
  EXPECT_EQ(caps[2].default_max, std::int64_t{1} << 16);
  EXPECT_EQ(caps[2].min, 1024);  // the oracle's max_elements: no run moves it
  EXPECT_EQ(caps[2].limit, kElementsLimit);
  EXPECT_EQ(caps[3].extent, kReachWorkCap);
  EXPECT_EQ(caps[3].limit, kWorkLimit);
  seen_elements = 0;
  EXPECT_TRUE(family().run("recording", "repeatable", {.cases = 200}).passed);
  EXPECT_LE(seen_elements, std::int64_t{1} << 16);
  seen_elements = 0;
  ::setenv("PARITY_MAX_REACH_WORK", "1048576", 1);
  const auto raised =
      family().run("recording", "repeatable", {.cases = 200, .max_extents = {{kReachElementsCap, 1 << 20}}});
  ::unsetenv("PARITY_MAX_REACH_WORK");
  EXPECT_TRUE(raised.passed) << raised.message;
  EXPECT_GT(seen_elements, std::int64_t{1} << 16) << "no reach case past the declared reach caps";
  EXPECT_LE(seen_elements, std::int64_t{1} << 20);
  const auto work_capped = [] {
    family().run("recording", "repeatable", {.cases = 5, .max_extents = {{kReachWorkCap, 512}}});
  };
  const std::string why = input_error_message(work_capped, "");
  EXPECT_NE(why.find("outside [1024, 1099511627776]"), std::string::npos) << why;
}

TEST(OpReach, AccuracyRowsAreReproducibleAndHoldTheProbeRowAndTheLast) {
  const OpDecl& d = op().decl;
  const Case c = the_case(1000, 64, 333);
  const std::vector<std::int64_t> rows = accuracy_rows(d, c);
  // 1024 elements of the oracle's caps hold 16 rows of 64 (the work T*D as well).
  EXPECT_EQ(rows.size(), 16u);
  EXPECT_EQ(rows, accuracy_rows(d, c));
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), 333));
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), 999));
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  // Within the oracle's caps: every row.
  EXPECT_EQ(accuracy_rows(d, the_case(8, 64)).size(), 8u);
}

TEST(OpReach, AccuracyOnDrawnRowsCatchesASubjectWrongOnlyAtReachSizes) {
  Kernel wrong(100);
  const Verdict ordinary = forward_accuracy(op(), the_case(16, 32, 3), wrong);
  EXPECT_TRUE(ordinary.holds()) << ordinary.detail;
  const Verdict reach = forward_accuracy(op(), the_case(1000, 64, 333), wrong);
  ASSERT_TRUE(reach.fails()) << reach.detail;
  EXPECT_NE(reach.detail.find("16 of 1000 rows checked"), std::string::npos) << reach.detail;
  Kernel right;
  const Verdict holds = forward_accuracy(op(), the_case(1000, 64, 333), right);
  ASSERT_TRUE(holds.holds()) << holds.detail;
  EXPECT_EQ(holds.metrics.at("rows_checked"), 16);
  EXPECT_NE(holds.detail.find("colsum not checked"), std::string::npos) << holds.detail;
  // Every row checked, colsum with them.
  const Verdict all = forward_accuracy(op(), the_case(16, 32, 3), right);
  EXPECT_EQ(all.metrics.at("rows_checked"), 16);
  EXPECT_EQ(all.detail.find("not checked"), std::string::npos) << all.detail;
}

TEST(OpReach, ACaseOfWhichOneRowIsPastTheCapsIsDiscardedNamingThem) {
  OpDecl d = op().decl;
  d.max_elements = d.max_work = 32;  // one row of 64 is past them
  OpDef narrow = op();
  narrow.decl = d;
  Kernel right;
  const Verdict v = forward_accuracy(narrow, the_case(100, 64), right);
  EXPECT_EQ(v.outcome, Outcome::discarded) << v.detail;
  EXPECT_NE(v.detail.find("max_work 32"), std::string::npos) << v.detail;
}

}  // namespace
}  // namespace parity::ops::reach_test
