// parity's glue to LibTorch for transition_step's and transition_score's references (torch-cpu,
// torch-second-cpu; torch-cuda): what parity does around ATen, never what ATen computes. A strided
// call reaches ATen as the contiguous float32 operands of the same call (float_operand), so each
// reference returns the contiguous call's bits for it, float32 and contiguous; a bad operand
// throws InputError naming it before ATen sees it; a CUDA reference never falls back to the CPU.
// Label torch: it runs against every LibTorch parity builds with.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>

namespace parity::ops::transition_step {
namespace {

// A call of transition_step (eps) or transition_score (prev) of 3 rows of 40, x of `act`.
OpCall torch_test_call(Entry e, DType act) {
  Tensor sigma = Tensor::zeros(DType::f32, {3});
  for (std::int64_t b = 0; b < 3; ++b) sigma.set_value(b, 1.0 - 0.25 * static_cast<double>(b));
  OpCall c{.extents = {{"B", 3}, {"n", 40}},
           .inputs = {{"x", normal_tensor(act, 3, 40, 0x70C4, 0)},
                      {"v", normal_tensor(DType::f32, 3, 40, 0x70C4, 1)},
                      {e == Entry::sample ? "eps" : "prev", normal_tensor(DType::f32, 3, 40, 0x70C4, 2)},
                      {"sigma", sigma}},
           .params = {{"type", 0.0}, {"step", 0.1f}, {"sigma_max", 0.98f}, {"noise_level", 0.7f}, {"normaliser", 1.0}},
           .output_dtypes = {{"logp", DType::f32}},
           .lengths = {}};
  if (e == Entry::sample)
    c.output_dtypes = {{"prev", DType::f32}, {"mean", DType::f32}, {"std", DType::f32}, {"logp", DType::f32}};
  return c;
}

const std::vector<TorchFormula> kFormulas = {TorchFormula::flow_grpo, TorchFormula::second};

TEST(TransitionTorchGlue, AStridedCallReachesATenAsTheContiguousOneWithTheSameBits) {
  for (const TorchFormula f : kFormulas)
    for (const Entry e : {Entry::sample, Entry::score})
      for (const DType act : {DType::f32, DType::bf16}) {
        const OpCall plain = torch_test_call(e, act);
        OpCall strided = plain;
        strided.inputs.at("x") = Layout{true, 3, 5}.place(plain.input("x"));
        strided.inputs.at("v") = Layout{false, 2, 1}.place(plain.input("v"));
        const std::string third = e == Entry::sample ? "eps" : "prev";
        strided.inputs.at(third) = Layout{true, 0, 7}.place(plain.input(third));
        for (const char* name : {"x", "v"}) ASSERT_FALSE(strided.input(name).is_contiguous()) << name;
        ASSERT_FALSE(strided.input(third).is_contiguous());
        const auto subject = make_torch_subject(f, e, false);
        const OpOutputs want = subject->run(plain), got = subject->run(strided);
        ASSERT_EQ(got.size(), want.size());
        for (const auto& [name, t] : want) {
          EXPECT_EQ(got.at(name).dtype(), DType::f32) << name;
          EXPECT_TRUE(got.at(name).is_contiguous()) << name;
          const BitwiseDiff d = compare_bitwise(got.at(name), t);
          EXPECT_TRUE(d.equal()) << name << ": " << d.describe(t.shape());
        }
      }
}

TEST(TransitionTorchGlue, ABadOperandThrowsInputErrorNamingIt) {
  for (const TorchFormula f : kFormulas)
    for (const Entry e : {Entry::sample, Entry::score}) {
      const auto subject = make_torch_subject(f, e, false);
      const std::string third = e == Entry::sample ? "eps" : "prev";
      const auto refused = [&](OpCall c, const std::string& names) {
        try {
          subject->run(c);
          ADD_FAILURE() << "accepted a bad " << names;
        } catch (const InputError& err) {
          EXPECT_NE(std::string(err.what()).find(names), std::string::npos) << err.what();
        }
      };
      OpCall c = torch_test_call(e, DType::f32);
      c.inputs.at("x") = Tensor::zeros(DType::f32, {120});
      refused(c, "x must be [B, n]");
      c = torch_test_call(e, DType::f32);
      c.inputs.at("v") = Tensor::zeros(DType::f32, {3, 41});
      refused(c, "v must be x's shape");
      c = torch_test_call(e, DType::f32);
      c.inputs.at(third) = Tensor::zeros(DType::bf16, {3, 40});
      refused(c, third + " must be float32");
      c = torch_test_call(e, DType::f32);
      c.inputs.at("sigma") = Tensor::zeros(DType::f32, {2});
      refused(c, "sigma and sigma_prev need one value per row of x (3)");
    }
}

TEST(TransitionTorchGlue, CudaNeverFallsBack) {
  EXPECT_EQ(torch_unavailable_reason(false), "");
  if (torch_unavailable_reason(true).empty()) GTEST_SKIP() << "a CUDA device is present";
  for (const TorchFormula f : kFormulas)
    for (const Entry e : {Entry::sample, Entry::score}) EXPECT_THROW(make_torch_subject(f, e, true), InputError);
  for (const char* op : {"transition_step", "transition_score"}) {
    find_op_family(op).subjects();  // registers the references
    for (const auto& s : find_op_family(op).infos())
      if (s.name == "torch-cuda" || s.name == "torch-second-cuda") {
        EXPECT_FALSE(s.unavailable_reason().empty()) << op << " " << s.name;
      }
  }
}

}  // namespace
}  // namespace parity::ops::transition_step
