// A kernel of the ops sdpa and sdpa_backward bound in the routines that run the model's attention
// (families/model/primitive_bound_routines.hpp): the registry replaces exactly joint_attention and
// token_refiner_block; the routines' forward is the model's attention with its scaled dot-product
// attention on the kernel (with parity's kernel inside, parity's own routine bit for bit); a kernel
// registered by the program becomes the model subject runtime-host+sdpa=NAME, runs inside the
// model and is judged by its properties: parity's own attention kernel passes every one, one whose
// bits depend on the batch fails batch_invariant_bound; a kernel of sdpa alone is bound with
// parity's sdpa_backward serving the backward.
#include <gtest/gtest.h>

#include <atomic>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/families/model/model_runs.hpp>
#include <parity/families/model/primitive_bound_routines.hpp>
#include <parity/families/model/routines/attention.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/properties/gen/family.hpp>

#include "bound_kernel_checks.hpp"
#include "model_property_run.hpp"
#include "replaced_routines.hpp"
#include "wrapped_kernel.hpp"

namespace parity {
namespace {

using properties::model::routines_running;

const runtime::RoutineRegistry& routines_with_attention_kernel(const std::string& subject, runtime::Backend backend) {
  return properties::model::routines_with_primitive_kernel("sdpa", subject, backend);
}

// Calls of the counting kernels (forward, backward) other than auto mode's self-check of the routine
// (B 1, S 5, D 4), and every call.
std::atomic<int> model_calls{0}, backward_model_calls{0}, forward_calls{0}, backward_calls{0};

// parity's sdpa and sdpa_backward kernels, counting; and sdpa's with o rounded through bf16
// whenever the batch has an even number of rows (a plan chosen from the batch).
void count_forward(const ops::OpCall& call) {
  ++forward_calls;
  if (call.extent("S") != 5) ++model_calls;
}
void count_backward(const ops::OpCall& call) {
  ++backward_calls;
  if (call.extent("S") != 5) ++backward_model_calls;
}

PARITY_REGISTER_OP_SUBJECT(counting, "sdpa",
                           wrapped_kernel("test-counting", "parity's sdpa kernel, counting", "sdpa", count_forward));
PARITY_REGISTER_OP_SUBJECT(counting_backward, "sdpa_backward",
                           wrapped_kernel("test-counting", "parity's sdpa_backward kernel", "sdpa_backward",
                                          count_backward));
PARITY_REGISTER_OP_SUBJECT(even_batch, "sdpa",
                           wrapped_kernel("test-even-batch-bf16", "o through bf16 for an even B", "sdpa", {},
                                          bf16_when("o", [](const ops::OpCall& call) {
                                            return call.extent("B") % 2 == 0;
                                          })));
PARITY_REGISTER_OP_SUBJECT(even_batch_backward, "sdpa_backward",
                           wrapped_kernel("test-even-batch-bf16", "parity's sdpa_backward kernel", "sdpa_backward",
                                          count_backward));
PARITY_REGISTER_OP_SUBJECT(forward_only, "sdpa",
                           wrapped_kernel("test-forward-only", "no sdpa_backward subject", "sdpa", count_forward));

TEST(AttentionKernel, ReplacesExactlyTheRoutinesThatRunTheAttention) {
  EXPECT_EQ(routines_running("sdpa"), (std::vector<std::string>{"joint_attention", "token_refiner_block"}));
  EXPECT_EQ(
      replaced_routine_names(routines_with_attention_kernel("parity-host", runtime::Backend::host), "parity-host"),
      routines_running("sdpa"));
  // The replaced routine keeps parity's acceptance: a bf16 h is refused, a float32 one taken.
  const runtime::RoutineInfo* info =
      routines_with_attention_kernel("parity-host", runtime::Backend::host).for_kind("attention");
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->has_backward);
  std::vector<runtime::TensorSpec> operands;
  for (const Tensor& t : model::AttentionOperands::example().list()) operands.push_back(runtime::TensorSpec::of(t));
  runtime::BoundaryCall call{
      .boundary = "attention", .kind = "attention", .node = true, .operands = operands, .needs_backward = true};
  EXPECT_EQ(info->cannot_take(call, runtime::Backend::host), "");
  call.operands[0].dtype = DType::bf16;
  EXPECT_NE(info->cannot_take(call, runtime::Backend::host), "");
}

// A kernel of sdpa without an sdpa_backward subject of its name: listed and bound, its forward
// serving the routines' attention and parity's sdpa_backward their backward, bit for bit parity's.
TEST(AttentionKernel, AKernelOfSdpaAloneLeavesTheBackwardToParitys) {
  expect_listed_forward_only("sdpa", "test-forward-only");
  const runtime::RoutineInfo* info =
      routines_with_attention_kernel("test-forward-only", runtime::Backend::host).for_kind("attention");
  ASSERT_NE(info, nullptr);
  expect_paritys_attention(*info, 21, "the forward-only kernel", &forward_calls);
  EXPECT_THROW(routines_with_attention_kernel("probe-split-keys", runtime::Backend::host), InputError);
  EXPECT_THROW(routines_with_attention_kernel("parity-host", runtime::Backend::cuda), InputError);
}

// token_refiner_block's attention (forward only) runs on the bound kernel too.
TEST(AttentionKernel, TheRefinersAttentionRunsOnTheKernel) {
  const runtime::RoutineInfo* info =
      routines_with_attention_kernel("test-counting", runtime::Backend::host).for_kind("token_refiner");
  ASSERT_NE(info, nullptr);
  const int forwards = forward_calls;
  EXPECT_EQ(info->self_check(runtime::Backend::host), "");
  EXPECT_GT(forward_calls - forwards, 0) << "the kernel did not serve token_refiner_block";
}

// The bound routine calls the kernel's sdpa in its forward and its sdpa_backward in its backward, and
// is parity's own routine with the kernel inside: the counting kernel wraps parity's sdpa kernels,
// which parity's routine uses too (primitives.hpp), so both give the same bits.
TEST(AttentionKernel, TheRoutineIsTheModelsAttentionWithTheKernelInside) {
  const runtime::RoutineInfo* info =
      routines_with_attention_kernel("test-counting", runtime::Backend::host).for_kind("attention");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->self_check(runtime::Backend::host), "");
  const std::vector<Tensor> operands = model::AttentionOperands::example().list();
  const Tensor d_out = model::example_operand(DType::f32, operands.front().shape(), 21);
  const auto bound = info->make(runtime::Backend::host);
  const runtime::RoutineInfo* own = model::model_routines().for_kind("attention");
  ASSERT_NE(own, nullptr);
  const auto paritys_routine = own->make(runtime::Backend::host);
  for (const bool backward : {false, true}) {
    const int forwards = forward_calls, backwards = backward_calls;
    const Tensor a = backward ? bound->backward(operands, {d_out}).at(0) : bound->forward(operands).at(0);
    EXPECT_GT(backward ? backward_calls - backwards : forward_calls - forwards, 0) << "the kernel was not called";
    const Tensor b =
        backward ? paritys_routine->backward(operands, {d_out}).at(0) : paritys_routine->forward(operands).at(0);
    const BitwiseDiff d = compare_bitwise(a, b);
    EXPECT_TRUE(d.equal()) << (backward ? "dh: " : "y: ") << d.describe(b.shape());
  }
}

TEST(AttentionKernel, ParitysAttentionKernelHoldsEveryModelPropertyInTheModel) {
  model_calls = 0;
  expect_every_model_property_holds("runtime-host+sdpa=test-counting");
  EXPECT_GT(model_calls.load(), 0) << "the kernel bound at the attention never ran in the model";
  EXPECT_GT(backward_model_calls.load(), 0) << "its sdpa_backward never ran in the model";
}

TEST(AttentionKernel, AKernelWhoseBitsDependOnTheBatchFailsBatchInvariance) {
  expect_fails_batch_invariance("runtime-host+sdpa=test-even-batch-bf16", {});
}

}  // namespace
}  // namespace parity
