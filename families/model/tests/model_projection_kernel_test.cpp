// A kernel of the op linear bound at the model's float32 projections (families/model/
// op_bound_routines.hpp): the registry replaces exactly those routines; the routine hands the kernel the
// boundary's x, W and b and returns its y, and its backward is the same kernel on dy and W^T
// (within the float32 bound of dx = dy W); a kernel registered by the program becomes the model
// subject runtime-host+linear=NAME, runs inside the model and is judged by the model's
// properties: parity's own linear kernel passes, one whose bits depend on the row count fails
// batch_invariant_bound.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <set>

#include <parity/families/model/model_runs.hpp>
#include <parity/families/model/op_bound_routines.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/properties/gen/family.hpp>

#include "model_property_run.hpp"
#include "replaced_routines.hpp"
#include "wrapped_kernel.hpp"

namespace parity {
namespace {

using properties::model::routines_with_projection_kernel;

// Calls of the counting kernel on other shapes than the self-check's two (T 3, N 4, K 5 forward;
// T 3, N 5, K 4 backward): calls the model made, not auto mode's check of the routine.
std::atomic<int> model_calls{0};

void count_model_call(const ops::OpCall& call) {
  const bool self_check = call.extent("T") == 3 && call.extent("N") + call.extent("K") == 9 &&
                          (call.extent("N") == 4 || call.extent("N") == 5);
  if (!self_check) ++model_calls;
}

// parity's linear kernel, counting the model's calls; and the same with y rounded through bf16 whenever
// it is handed an even number of rows (a plan chosen from the row count).
PARITY_REGISTER_OP_SUBJECT(counting, "linear",
                           wrapped_kernel("test-counting", "parity's linear kernel, counting its calls", "linear",
                                          count_model_call));
PARITY_REGISTER_OP_SUBJECT(even_rows, "linear",
                           wrapped_kernel("test-even-rows-bf16", "y rounded through bf16 for an even row count",
                                          "linear", {}, bf16_when("y", [](const ops::OpCall& call) {
                                            return call.extent("T") % 2 == 0;
                                          })));

PARITY_REGISTER_OP_SUBJECT(unavailable, "linear",
                           ops::OpSubjectInfo{
                               .name = "test-unavailable",
                               .backend = "host",
                               .description = "a kernel that cannot run here",
                               .unavailable_reason = [] { return std::string("its library is not loaded"); },
                               .make = [] { return std::unique_ptr<ops::OpSubject>(); }});

TEST(ProjectionKernel, ReplacesExactlyTheFloat32Projections) {
  std::set<std::string> replaced;
  for (const runtime::RoutineInfo* routine :
       replaced_routines(routines_with_projection_kernel("parity-host", runtime::Backend::host), "parity-host"))
    replaced.insert(routine->serves.front());
  EXPECT_EQ(replaced, (std::set<std::string>{"audio_proj_in", "audio_proj_out", "proj_in", "proj_out"}));
  EXPECT_THROW(routines_with_projection_kernel("no-such-kernel", runtime::Backend::host), InputError);
  EXPECT_THROW(routines_with_projection_kernel("parity-host", runtime::Backend::cuda), InputError);
}

TEST(ProjectionKernel, ForwardIsTheKernelsAndBackwardIsDxWithinItsBound) {
  const runtime::RoutineInfo* info =
      routines_with_projection_kernel("parity-host", runtime::Backend::host).for_kind("audio_proj_in");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->self_check(runtime::Backend::host), "");
  const auto routine = info->make(runtime::Backend::host);
  const std::int64_t B = 2, T = 3, K = 5, N = 4;
  const Tensor x = model::example_operand(DType::f32, {B, T, K}, 11),
               W = model::example_operand(DType::f32, {N, K}, 12), b = model::example_operand(DType::f32, {N}, 13),
               dy = model::example_operand(DType::f32, {B, T, N}, 14);
  const std::vector<Tensor> y = routine->forward({x, W, b});
  ASSERT_EQ(y.size(), 1u);
  ASSERT_EQ(y[0].shape(), (std::vector<std::int64_t>{B, T, N}));
  // The kernel's own y on the token rows [B T, K]: the same bits.
  ops::OpCall call;
  call.extents = {{"T", B * T}, {"N", N}, {"K", K}};
  Tensor x2 = Tensor::zeros(DType::f32, {B * T, K});
  for (std::int64_t i = 0; i < x.numel(); ++i) x2.set_bits(i, x.contiguous().bits_at(i));
  call.inputs = {{"x", x2}, {"W", W}, {"b", b}};
  call.params = {{"bias", 1.0}};
  call.output_dtypes = {{"y", DType::f32}};
  const Tensor direct = paritys_kernel("linear")->run(call).at("y");
  for (std::int64_t i = 0; i < direct.numel(); ++i)
    ASSERT_EQ(y[0].contiguous().bits_at(i), direct.contiguous().bits_at(i)) << i;
  // dx = dy W, each element within the float32 bound of an N-term sum: N u sum |dy W| / (1 - N u).
  const std::vector<Tensor> g = routine->backward({x, W, b}, {dy});
  ASSERT_EQ(g.at(0).shape(), x.shape());
  const double u = 0x1p-24, gamma = N * u / (1 - N * u);
  for (std::int64_t m = 0; m < B * T; ++m)
    for (std::int64_t k = 0; k < K; ++k) {
      double exact = 0, abs = 0;
      for (std::int64_t n = 0; n < N; ++n) {
        const double p = dy.value_at(m * N + n) * W.value_at(n * K + k);
        exact += p;
        abs += std::fabs(p);
      }
      EXPECT_LE(std::fabs(g[0].value_at(m * K + k) - exact), gamma * abs) << "dx[" << m << ", " << k << "]";
    }
}

TEST(ProjectionKernel, ParitysLinearKernelHoldsEveryModelPropertyInTheModel) {
  model_calls = 0;
  expect_every_model_property_holds("runtime-host+linear=test-counting");
  EXPECT_GT(model_calls.load(), 0) << "the kernel bound at the projections never ran in the model";
}

TEST(ProjectionKernel, AKernelWhoseBitsDependOnTheRowCountFailsBatchInvariance) {
  expect_fails_batch_invariance("runtime-host+linear=test-even-rows-bf16", {"differs alone and in a batch"});
}

// A kernel that cannot run here is never made: its routines refuse every call, saying why (strict
// mode reports the fallback, auto falls back), and its self-check fails with the same reason.
TEST(ProjectionKernel, AnUnavailableKernelRefusesEveryCallWithItsReason) {
  const runtime::RoutineInfo* info =
      routines_with_projection_kernel("test-unavailable", runtime::Backend::host).for_kind("audio_proj_in");
  ASSERT_NE(info, nullptr);
  runtime::BoundaryCall call{.boundary = "audio_proj_in",
                             .kind = "audio_proj_in",
                             .node = false,
                             .operands = {{DType::f32, {2, 3, 8}}, {DType::f32, {4, 8}}, {DType::f32, {4}}},
                             .needs_backward = false};
  const std::string why = info->cannot_take(call, runtime::Backend::host);
  EXPECT_NE(why.find("test-unavailable: its library is not loaded"), std::string::npos) << why;
  EXPECT_EQ(info->self_check(runtime::Backend::host), why);
  EXPECT_THROW(info->make(runtime::Backend::host), InputError);
}

}  // namespace
}  // namespace parity
