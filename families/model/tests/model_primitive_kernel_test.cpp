// A kernel of rms_norm, rope or swiglu bound in every routine of the model that runs the op
// (families/model/primitive_bound_routines.hpp): the routines that run each op are traced as the model
// documents them (families/model/routines/model_routines.hpp), and exactly those are replaced; with
// parity's own kernel inside, a replaced routine gives parity's routine's bits, forward and backward; a
// kernel registered by the program becomes the model subject runtime-host+OP=NAME, runs inside
// the model and is judged by its properties: parity's rms_norm kernel, counted, holds every one;
// one whose bits depend on the row count fails batch_invariant_bound; a forward-only kernel leaves
// the backward to parity's; what cannot be bound is refused naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/families/model/model_runs.hpp>
#include <parity/families/model/primitive_bound_routines.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/family.hpp>

#include "bound_kernel_checks.hpp"
#include "model_property_run.hpp"
#include "replaced_routines.hpp"
#include "wrapped_kernel.hpp"

namespace parity {
namespace {

using properties::model::primitive_ops;
using properties::model::routines_running;
using properties::model::routines_with_primitive_kernel;
using runtime::Backend;

std::atomic<int> forward_calls{0}, backward_calls{0};

// parity's kernel of `op`, counting its calls in forward_calls or backward_calls.
ops::OpSubjectInfo counting(const std::string& op, const std::string& name = "test-counting",
                            const std::string& description = "parity's kernel, counted") {
  const bool backward = op.ends_with("_backward");
  return wrapped_kernel(name, description, op,
                        [backward](const ops::OpCall&) { ++(backward ? backward_calls : forward_calls); });
}

PARITY_REGISTER_OP_SUBJECT(counting_forward, "rms_norm", counting("rms_norm"));
PARITY_REGISTER_OP_SUBJECT(counting_backward, "rms_norm_backward", counting("rms_norm_backward"));
PARITY_REGISTER_OP_SUBJECT(counting_rope, "rope", counting("rope"));
PARITY_REGISTER_OP_SUBJECT(counting_swiglu, "swiglu", counting("swiglu"));
PARITY_REGISTER_OP_SUBJECT(counting_swiglu_backward, "swiglu_backward", counting("swiglu_backward"));
PARITY_REGISTER_OP_SUBJECT(forward_only, "rms_norm", counting("rms_norm", "test-forward-only", "no backward"));
// y rounded through bf16 from 64 rows on: a plan chosen from the row count, so a sample alone (T
// tokens) and in a batch (B T tokens) may take different plans.
PARITY_REGISTER_OP_SUBJECT(many_rows, "rms_norm",
                           wrapped_kernel("test-many-rows-bf16", "y rounded through bf16 from 64 rows on", "rms_norm",
                                          {}, bf16_when("y", [](const ops::OpCall& call) {
                                            return call.extent("T") >= 64;
                                          })));

TEST(PrimitiveKernel, TheRoutinesThatRunEachOpAreTheModelsOwn) {
  EXPECT_EQ(primitive_ops(), (std::vector<std::string>{"rms_norm", "rope", "swiglu", "sdpa"}));
  EXPECT_EQ(routines_running("rms_norm"),
            (std::vector<std::string>{"joint_attention", "token_refiner_block", "adaln_norm_out"}));
  EXPECT_EQ(routines_running("rope"), (std::vector<std::string>{"joint_attention", "token_refiner_block"}));
  EXPECT_EQ(routines_running("swiglu"), (std::vector<std::string>{"swiglu_feed_forward", "token_refiner_block"}));
}

TEST(PrimitiveKernel, ReplacesExactlyTheRoutinesThatRunTheOp) {
  for (const std::string& op : primitive_ops()) {
    SCOPED_TRACE(op);
    EXPECT_EQ(replaced_routine_names(routines_with_primitive_kernel(op, "parity-host", Backend::host), "parity-host"),
              routines_running(op));
  }
}

// parity's own kernel inside: joint_attention (which runs rms_norm and rope) gives parity's routine's
// bits, forward and backward.
TEST(PrimitiveKernel, WithParitysKernelARoutineGivesParitysBits) {
  for (const std::string op : {"rms_norm", "rope"}) {
    const runtime::RoutineInfo* info =
        routines_with_primitive_kernel(op, "parity-host", Backend::host).for_kind("attention");
    ASSERT_NE(info, nullptr) << op;
    EXPECT_EQ(info->self_check(Backend::host), "") << op;
    expect_paritys_attention(*info, 10, op);
  }
}

TEST(PrimitiveKernel, ParitysRmsNormKernelHoldsEveryModelPropertyInTheModel) {
  forward_calls = 0;
  backward_calls = 0;
  expect_every_model_property_holds("runtime-host+rms_norm=test-counting");
  EXPECT_GT(forward_calls.load(), 0) << "the bound rms_norm kernel never ran in the model";
  EXPECT_GT(backward_calls.load(), 0) << "the bound rms_norm_backward kernel never ran in the model";
}

TEST(PrimitiveKernel, AKernelWhoseBitsDependOnTheRowCountFailsBatchInvariance) {
  expect_fails_batch_invariance("runtime-host+rms_norm=test-many-rows-bf16", {"differs alone and in a batch"});
}

// A kernel of rms_norm without an rms_norm_backward subject of its name: bound, with parity's
// backward kernel serving the routines' backward, so the routine's backward is parity's bit for bit.
TEST(PrimitiveKernel, AForwardOnlyKernelLeavesTheBackwardToParitys) {
  expect_listed_forward_only("rms_norm", "test-forward-only");
  const runtime::RoutineInfo* info =
      routines_with_primitive_kernel("rms_norm", "test-forward-only", Backend::host).for_kind("attention");
  ASSERT_NE(info, nullptr);
  expect_paritys_attention(*info, 10, "the forward-only kernel", &forward_calls);
}

// Kernels of rope, swiglu and swiglu_backward, counted, serve token_refiner_block's forward and
// swiglu_feed_forward's forward and backward: each is called there.
TEST(PrimitiveKernel, RopeAndSwigluKernelsServeTheRoutinesThatRunThem) {
  for (const std::string op : {"rope", "swiglu"}) {
    const runtime::RoutineInfo* info =
        routines_with_primitive_kernel(op, "test-counting", Backend::host).for_kind("token_refiner");
    ASSERT_NE(info, nullptr) << op;
    forward_calls = 0;
    EXPECT_EQ(info->self_check(Backend::host), "") << op;
    EXPECT_GT(forward_calls.load(), 0) << op << "'s kernel did not serve token_refiner_block";
  }
  const runtime::RoutineInfo* ff =
      routines_with_primitive_kernel("swiglu", "test-counting", Backend::host).for_kind("feed_forward");
  ASSERT_NE(ff, nullptr);
  forward_calls = 0;
  backward_calls = 0;
  EXPECT_EQ(ff->self_check(Backend::host), "");  // forward and backward, twice
  EXPECT_GT(forward_calls.load(), 0);
  EXPECT_GT(backward_calls.load(), 0) << "swiglu_backward's kernel did not serve swiglu_feed_forward's backward";
}

TEST(PrimitiveKernel, WhatCannotBeBoundIsRefusedNamingIt) {
  const auto refused = [](const std::string& op, const std::string& subject, Backend b, const std::string& text) {
    EXPECT_TRUE(throws_input_error([&] { routines_with_primitive_kernel(op, subject, b); }, text))
        << op << "=" << subject << " was bound";
  };
  refused("linear", "parity-host", Backend::host, "linear is not bound in every routine that runs it");
  refused("rms_norm", "no-such-kernel", Backend::host, "rms_norm has no subject no-such-kernel");
  refused("rms_norm", "parity-host", Backend::cuda, "runs on host, not on the runtime's cuda");
  const auto& rope = ops::find_op_family("rope").infos();
  const auto probe =
      std::find_if(rope.begin(), rope.end(), [](const auto& s) { return s.kind == subjects::SubjectKind::probe; });
  ASSERT_NE(probe, rope.end()) << "rope has no probe to refuse";
  refused("rope", probe->name, Backend::host, "is a probe, not an implementation");
}

}  // namespace
}  // namespace parity
