// A kernel of transition_step bound at the model's transition boundary
// (families/model/transition_bound_routines.hpp): exactly the routine transition_step_logprob is
// replaced; parity's kernel takes the whole batch, each sample at its own sigma and sigma_prev,
// and any other kernel of the op is called once per group of samples that share sigma and
// sigma_prev; with parity's arithmetic inside, either gives parity's routine's bits; each becomes
// the model subject runtime-host+transition_step=NAME and holds every model property; a kernel whose log-prob depends
// on the call's batch fails batch_invariant_bound on a sampler's batch (shared_sigma); what cannot be bound is refused
// naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/families/model/model_runs.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/families/model/routines/transition_kernel.hpp>
#include <parity/families/model/transition_bound_routines.hpp>
#include <parity/properties/gen/family.hpp>

#include "model_property_run.hpp"
#include "replaced_routines.hpp"
#include "wrapped_kernel.hpp"

namespace parity {
namespace {

using properties::model::routines_with_transition_kernel;
using properties::model::transition_kernels;
using runtime::Backend;

// The batch size of every call a test kernel got.
std::mutex calls_mutex;
std::vector<std::int64_t> call_batches;

void record(std::int64_t batch) {
  std::lock_guard lock(calls_mutex);
  call_batches.push_back(batch);
}

std::vector<std::int64_t> take_calls() {
  std::lock_guard lock(calls_mutex);
  return std::exchange(call_batches, {});
}

// parity's kernel of the op transition_step (sigma and step per call), recording each call's B;
// and the same with logp one ulp further from zero in a call of two rows or more, as a kernel that
// reduces a batch in another order might.
void record_call(const ops::OpCall& call) { record(call.extent("B")); }

void logp_off_in_batches(const ops::OpCall& call, ops::OpOutputs& out) {
  if (call.extent("B") < 2) return;
  Tensor& logp = out.at("logp");
  for (std::int64_t b = 0; b < logp.numel(); ++b) {
    const float v = static_cast<float>(logp.value_at(b));
    logp.set_value(b, std::nextafter(v, v < 0 ? -INFINITY : INFINITY));
  }
}

PARITY_REGISTER_OP_SUBJECT(op_step_exact, "transition_step",
                           wrapped_kernel("test-op-step", "parity's op kernel, its calls recorded", "transition_step",
                                          record_call));
PARITY_REGISTER_OP_SUBJECT(op_step_batch_dependent, "transition_step",
                           wrapped_kernel("test-op-step-batch-dependent",
                                          "logp one ulp off in a call of two rows or more", "transition_step",
                                          record_call, logp_off_in_batches));

// The routine's operands for four samples, the first and third at one sigma, the others at their own.
std::vector<Tensor> four_samples() {
  std::vector<Tensor> o;
  for (std::uint32_t t = 0; t < 3; ++t) o.push_back(model::example_operand(DType::f32, {4, 6}, 30 + t));
  o.push_back(Tensor::zeros(DType::f32, {4}));
  o.push_back(Tensor::zeros(DType::f32, {4}));
  const float sigma[] = {0.8f, 0.5f, 0.8f, 0.3f}, sigma_prev[] = {0.7f, 0.4f, 0.7f, 0.25f};
  for (std::int64_t b = 0; b < 4; ++b) {
    o[3].set_value(b, sigma[b]);
    o[4].set_value(b, sigma_prev[b]);
  }
  return o;
}

std::unique_ptr<runtime::Routine> bound_routine(const std::string& subject) {
  const runtime::RoutineInfo* info = routines_with_transition_kernel(subject, Backend::host).for_kind("transition");
  if (!info) throw std::logic_error("no transition routine bound to " + subject);
  return info->make(Backend::host);
}

void expect_paritys_bits(const std::vector<Tensor>& got, const std::vector<Tensor>& o) {
  const auto want = model::model_routines().for_kind("transition")->make(Backend::host)->forward(o);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(compare_bitwise(got[0], want[0]).equal()) << "prev";
  EXPECT_TRUE(compare_bitwise(got[1], want[1]).equal()) << "logp";
}

TEST(TransitionKernel, ReplacesTheTransitionRoutineOnly) {
  EXPECT_EQ(replaced_routine_names(routines_with_transition_kernel("parity-host", Backend::host), "parity-host"),
            std::vector<std::string>{"transition_step_logprob"});
}

// Sample b of the routine's operands alone: x, v, eps, sigma and sigma_prev at row b.
std::vector<Tensor> sample(const std::vector<Tensor>& o, std::int64_t b) {
  std::vector<Tensor> one;
  for (const Tensor& t : o) one.push_back(t.rows(b, b + 1));
  return one;
}

// parity's kernel steps each sample to its own sigma_prev, one that float32(sigma - step) cannot
// give back included (which an op kernel's call cannot take: WhatCannotBeBoundIsRefusedNamingIt):
// each sample of the batch gets the bits it gets alone, and sample 1's differ from those at its
// former sigma_prev.
TEST(TransitionKernel, ParitysKernelTakesEverySampleAtItsOwnSigmaPrev) {
  auto o = four_samples();
  const auto routine = bound_routine("parity-host");
  const auto before = routine->forward(sample(o, 1));
  o[4].set_value(1, 1e-30);
  const auto got = routine->forward(o);
  expect_paritys_bits(got, o);
  for (std::int64_t b = 0; b < 4; ++b) {
    const auto alone = routine->forward(sample(o, b));
    EXPECT_TRUE(compare_bitwise(got[0].rows(b, b + 1), alone[0]).equal()) << "prev of sample " << b;
    EXPECT_TRUE(compare_bitwise(got[1].rows(b, b + 1), alone[1]).equal()) << "logp of sample " << b;
    EXPECT_TRUE(std::isfinite(got[1].value_at(b))) << b;
  }
  EXPECT_FALSE(compare_bitwise(got[1].rows(1, 2), before[1]).equal()) << "sample 1's logp ignores its sigma_prev";
}

TEST(TransitionKernel, AnOpKernelIsCalledOncePerGroupOfSamplesSharingSigma) {
  const auto o = four_samples();
  const auto routine = bound_routine("test-op-step");
  take_calls();
  const auto got = routine->forward(o);
  EXPECT_EQ(take_calls(), (std::vector<std::int64_t>{2, 1, 1}));  // samples {0, 2}, {1}, {3}
  expect_paritys_bits(got, o);
}

TEST(TransitionKernel, TheKernelsListSayHowEachIsCalled) {
  int seen = 0;
  for (const auto& k : transition_kernels()) {
    if (k.name == "parity-host") {
      ++seen;
      EXPECT_NE(k.description.find("every sample at its own sigma in one call"), std::string::npos) << k.description;
    }
    if (k.name == "test-op-step") {
      ++seen;
      EXPECT_NE(k.description.find("once per group of samples"), std::string::npos) << k.description;
    }
  }
  EXPECT_EQ(seen, 2);
}

// Every property holds; batch_invariant_bound (strict mode: no self-check runs the kernel) gives
// the op kernel whole batches of two samples or more, which it gets only from
// the cases whose samples share one sigma.
TEST(TransitionKernel, EveryModelPropertyHoldsWithEitherKindOfKernel) {
  for (const std::string subject : {"parity-host", "test-op-step"}) {
    for (const auto& p : gen::model_family().properties()) {
      take_calls();
      const gen::RunResult r = run_model_property("runtime-host+transition_step=" + subject, p.name);
      EXPECT_TRUE(r.passed) << subject << " " << p.name << ": " << r.message;
      const auto calls = take_calls();
      if (p.name != "batch_invariant_bound" || subject == "parity-host") continue;
      EXPECT_TRUE(std::ranges::any_of(calls, [](std::int64_t b) { return b >= 2; }))
          << subject << " never got a batch of two samples or more in batch_invariant_bound";
    }
  }
}

TEST(TransitionKernel, AKernelWhoseLogProbDependsOnTheBatchFailsBatchInvariance) {
  expect_fails_batch_invariance("runtime-host+transition_step=test-op-step-batch-dependent",
                                {"differs alone and in a batch", "logp"});
}

// The boundary refuses an operand outside RowStep's contract (ops/transition_step's
// check_row_step) naming it, before any call of the op kernel.
TEST(TransitionKernel, TheBoundaryRefusesABadOperandNamingItBeforeAnyCall) {
  const auto step = model::with_transition_kernel(model::Primitives{}, "test-op-step",
                                                  std::make_shared<WrappedKernel>("transition_step", record_call))
                        .transition_step;
  const auto f32 = [](std::vector<std::int64_t> shape) { return Tensor::zeros(DType::f32, std::move(shape)); };
  const ops::transition_step::RowStep good{
      .x = f32({2, 3}), .v = f32({2, 3}), .eps = f32({2, 3}), .sigma = {0.5f, 0.5f}, .sigma_prev = {0.25f, 0.25f}};
  take_calls();
  EXPECT_NO_THROW(step(good));
  EXPECT_EQ(take_calls(), std::vector<std::int64_t>{2});
  const auto refused = [&](ops::transition_step::RowStep s, const std::string& names) {
    EXPECT_TRUE(throws_input_error([&] { step(s); }, names)) << "accepted a bad " << names;
    EXPECT_TRUE(take_calls().empty()) << names;
  };
  auto bad_v = good;
  bad_v.v = f32({2, 4});
  refused(bad_v, "v must be x's shape");
  auto bad_eps = good;
  bad_eps.eps = Tensor::zeros(DType::bf16, {2, 3});
  refused(bad_eps, "eps must be float32");
}

TEST(TransitionKernel, WhatCannotBeBoundIsRefusedNamingIt) {
  const auto refused = [](const std::string& subject, Backend b, const std::string& text) {
    EXPECT_TRUE(throws_input_error([&] { routines_with_transition_kernel(subject, b); }, text))
        << subject << " was bound";
  };
  refused("no-such-kernel", Backend::host, "transition_step has no subject no-such-kernel");
  refused("parity-host", Backend::cuda, "runs on host, not on the runtime's cuda");
  refused("probe-no-sqrt-dt", Backend::host, "is a probe, not an implementation");
  refused("torch-cpu", Backend::host, "is a reference, not an implementation");
  // A sigma_prev that float32(sigma - step) cannot give back: an op kernel cannot take it, and no
  // group is called.
  auto o = four_samples();
  o[4].set_value(0, 1e-30);
  o[4].set_value(2, 1e-30);
  take_calls();
  EXPECT_TRUE(throws_input_error([&] { bound_routine("test-op-step")->forward(o); },
                                 "sample 0's sigma 0.800000012 and sigma_prev 1e-30 differ by no float32 step"))
      << "sigma_prev 1e-30 at sigma 0.8 was not refused as expected";
  EXPECT_TRUE(take_calls().empty()) << "a group was called before the refusal";
}

}  // namespace
}  // namespace parity
