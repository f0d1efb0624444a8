// run_property and the family contracts: every generated case of every family lies inside its
// family's contract at every RapidCheck size; shrinking keeps the kind of the first failure and
// reaches a local minimum in each dimension; verdict kinds round-trip through JSON, old
// reproducers without one still read.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/core/verdict.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/registry/families.hpp>

namespace {

using namespace parity;

// Draws `count` cases of `family`, every other one at RapidCheck's default maximum size (100,
// where its integers span their whole range), the others at sizes cycling over 0..100.
template <class Visit>
void draw(const gen::Family& family, int count, Visit visit) {
  rc::Random random(0x5EEDull);
  const rc::Gen<Case> cases = family.cases();
  for (int i = 0; i < count; ++i) visit(cases(random.split(), i % 2 ? i % 101 : 100).value());
}

TEST(CaseContract, EveryGeneratedCaseOfEveryFamilyLiesInside) {
  for (const gen::Family* family : registry::families()) {
    const int count = family->name() == "lora" ? 300 : 100;
    int outside = 0;
    draw(*family, count, [&](const Case& c) {
      try {
        family->rules().check_contract(c);
      } catch (const InputError& e) {
        if (outside++ == 0) ADD_FAILURE() << family->name() << ": " << c.summary() << ": " << e.what();
      }
    });
    EXPECT_EQ(outside, 0) << family->name() << ": " << outside << " of " << count << " generated cases outside";
  }
}

gen::RunConfig quiet(std::uint64_t seed = 7, int cases = 100) {
  return {.cases = cases, .seed = seed, .write_reproducer = false};
}

// The specimen generator: transition_step's cases (a batch of B rows of n elements each).
const gen::Family& specimen() { return ops::find_op_family("transition_step"); }
const gen::CaseRules& specimen_rules() { return specimen().rules(); }

// Its cases with rows of 1 to 300 elements, the length shrinking towards 1.
rc::Gen<Case> short_rows() {
  return rc::gen::apply(
      [](Case c, std::int64_t n) {
        c.dims["n"] = n;
        return specimen_rules().conform(c);
      },
      specimen().cases(), rc::gen::inRange<std::int64_t>(1, 301));
}

// A wrong value on every case of 100 elements a row or more; once one was seen, a throw on every shorter
// case (as a subject that rejects what it then sees): the shrinker must not follow the throw.
TEST(Shrinking, KeepsTheKindOfTheFirstFailure) {
  bool seen = false;
  const auto check = [&](const Case& c) {
    if (c.dim("n") >= 100) {
      seen = true;
      return Verdict::fail("p", "wrong value");
    }
    if (seen) throw std::runtime_error("short row");
    return Verdict::pass("p");
  };
  const auto r = gen::run_property("s", "p", short_rows(), check, quiet(), specimen_rules());
  ASSERT_TRUE(r.counterexample) << r.message;
  EXPECT_EQ(r.verdict->kind, FailureKind::value) << r.message;
  // A local minimum: 99 elements throws, which does not reproduce a wrong value.
  EXPECT_EQ(r.counterexample->dim("n"), 100) << r.message;
}

// A probe-like failure on every case, whatever its size: the descent after RapidCheck's own
// shrinking must reach one element, one row.
TEST(Shrinking, ReachesALocalMinimumInEveryDimension) {
  const auto check = [](const Case&) { return Verdict::fail("p", "every case"); };
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto r = gen::run_property("s", "p", specimen().cases(), check, quiet(seed), specimen_rules());
    ASSERT_TRUE(r.counterexample) << r.message;
    EXPECT_EQ(r.counterexample->dim("n"), 1) << "seed " << seed << ": " << r.message;
    EXPECT_EQ(r.counterexample->dim("B"), 1) << "seed " << seed << ": " << r.message;
    EXPECT_NO_THROW(specimen_rules().check_contract(*r.counterexample));
  }
}

// A case outside the contract never reaches the subject: it is parity's failure, of its own kind.
TEST(Shrinking, AGeneratedCaseOutsideTheContractIsParitysFault) {
  Case c = specimen().cases()(rc::Random(1), 0).value();
  c.dims["n"] = specimen().extent_caps().at(1).limit + 1;
  bool ran = false;
  const auto r = gen::run_property(
      "s", "p", rc::gen::just(c),
      [&](const Case&) {
        ran = true;
        return Verdict::pass("p");
      },
      quiet(1, 1), specimen_rules());
  ASSERT_TRUE(r.verdict) << r.message;
  EXPECT_EQ(r.verdict->kind, FailureKind::invalid_case);
  EXPECT_FALSE(ran);
}

// A wrong value first, a throw on every later run: the case does not fail the same way again,
// so the failure is nondeterminism, and the header says so rather than the first kind.
TEST(Shrinking, AFailureOfAnotherKindOnTheRerunIsNondeterminism) {
  int runs = 0;
  const auto check = [&](const Case&) -> Verdict {
    if (runs++ == 0) return Verdict::fail("p", "wrong value");
    throw std::runtime_error("rejects it now");
  };
  gen::RunConfig config = quiet(1, 1);
  config.shrink = false;
  const auto r = gen::run_property("s", "p", short_rows(), check, config, specimen_rules());
  ASSERT_TRUE(r.verdict) << r.message;
  EXPECT_EQ(r.verdict->kind, FailureKind::nondeterministic) << r.message;
  EXPECT_NE(r.message.find("(" + failure_kind_text(FailureKind::nondeterministic)), std::string::npos) << r.message;
}

// A run no `parity check` command reruns (another generator) prints no rerun line.
TEST(RunProperty, AnEmptyRerunCommandPrintsNoRerunLine) {
  gen::RunConfig config = quiet(1, 1);
  config.shrink = false;
  config.rerun_command = [](const std::string&, std::uint64_t, int) { return std::string(); };
  const auto r = gen::run_property(
      "s", "p", short_rows(), [](const Case&) { return Verdict::fail("p", "wrong"); }, config, specimen_rules());
  ASSERT_TRUE(r.verdict) << r.message;
  EXPECT_EQ(r.message.find("rerun:"), std::string::npos) << r.message;
}

// The one predicate of every runner: the contract first, then any exception (an InputError
// too) the subject throws is kind `threw`, and only a failure of the same kind reproduces.
TEST(GuardedVerdict, ContractThenThrewThenSameKind) {
  Case inside = specimen().cases()(rc::Random(1), 0).value();
  Case outside = inside;
  outside.dims["n"] = specimen().extent_caps().at(1).limit + 1;
  const auto contract = specimen_rules().check_contract;
  bool ran = false;
  const auto throws = [&](const Case&) -> Verdict {
    ran = true;
    throw InputError("the subject's own refusal");
  };
  const Verdict invalid = gen::guarded_verdict("p", outside, contract, throws);
  EXPECT_EQ(invalid.kind, FailureKind::invalid_case);
  EXPECT_FALSE(ran);
  const Verdict threw = gen::guarded_verdict("p", inside, contract, throws);
  ASSERT_TRUE(threw.fails());
  EXPECT_EQ(threw.kind, FailureKind::threw);
  EXPECT_EQ(verdict_to_json(threw)["failure"], "threw");
  EXPECT_FALSE(gen::reproduces(threw, FailureKind::value));
  EXPECT_TRUE(gen::reproduces(threw, FailureKind::threw));
}

TEST(GuardedVerdict, AllocationFailuresAndStickyCudaErrorsHaveTheirKinds) {
  const Case inside;
  const auto no_contract = [](const Case&) {};
  const auto throwing = [](auto error) { return [error](const Case&) -> Verdict { throw error; }; };
  const Verdict oom = gen::guarded_verdict("p", inside, no_contract, throwing(std::bad_alloc()));
  EXPECT_EQ(oom.kind, FailureKind::out_of_memory) << oom.detail;
  const Verdict torch_oom = gen::guarded_verdict(
      "p", inside, no_contract, throwing(std::runtime_error("DefaultCPUAllocator: can't allocate memory: 1 TB")));
  EXPECT_EQ(torch_oom.kind, FailureKind::out_of_memory) << torch_oom.detail;
  const Verdict fault = gen::guarded_verdict(
      "p", inside, no_contract, throwing(std::runtime_error("CUDA error: an illegal memory access was encountered")));
  EXPECT_EQ(fault.kind, FailureKind::device_fault);
  EXPECT_EQ(fault.detail.rfind("device fault: cudaErrorIllegalAddress (the subject threw: CUDA error: ", 0), 0)
      << fault.detail;
  const Verdict assert_fault =
      gen::guarded_verdict("p", inside, no_contract, throwing(std::runtime_error("device-side assert triggered")));
  EXPECT_EQ(assert_fault.kind, FailureKind::device_fault);
  // A CUDA error the context survives (an invalid argument) is the subject's plain throw.
  const Verdict plain =
      gen::guarded_verdict("p", inside, no_contract, throwing(std::runtime_error("CUDA error: invalid argument")));
  EXPECT_EQ(plain.kind, FailureKind::threw);
  // parity's own fault with its worker is no verdict: it propagates.
  EXPECT_THROW(gen::guarded_verdict("p", inside, no_contract, throwing(WorkerError("no worker"))), WorkerError);
}

TEST(VerdictJson, KindsRoundTripAndOldFailuresRead) {
  for (const FailureKind k : failure_kinds()) {
    const Verdict v = Verdict::fail("p", "d", k);
    EXPECT_EQ(verdict_from_json(verdict_to_json(v)), v) << failure_kind_name(k);
  }
  const nlohmann::json old = {{"property", "p"}, {"outcome", "fails"}, {"detail", "the subject threw: boom"}};
  EXPECT_EQ(verdict_from_json(old).kind, FailureKind::threw);
  const nlohmann::json old_value = {{"property", "p"}, {"outcome", "fails"}, {"detail", "3 of 4 differ"}};
  EXPECT_EQ(verdict_from_json(old_value).kind, FailureKind::value);
  nlohmann::json bad = old;
  bad["failure"] = "sometimes";
  EXPECT_TRUE(throws_input_error([&] { verdict_from_json(bad); }, "verdict.failure")) << "a bad kind was accepted";
}

}  // namespace
