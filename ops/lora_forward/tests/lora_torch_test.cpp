// parity's glue to LibTorch for the LoRA references (lora_torch.cpp), torch-cpu and torch-cuda of
// lora_forward and lora_backward: each returns its op's declared outputs, of their shapes and
// dtypes, and nothing else (no dW: W has no requires_grad); bad operands are refused naming them
// before ATen; a CUDA subject never falls back to the CPU: refused without a device, computing on
// it (allocating through LibTorch's CUDA allocator) with one; the headers are the configured
// LibTorch's. What LibTorch computes (its accuracy, whether its bits depend on the layout or the
// batch) is LibTorch's and its BLAS's: a finding (`parity gate` findings, `parity check
// lora_forward --subject torch-cpu`), never asserted here.
#include <gtest/gtest.h>

#include <string>

#ifdef PARITY_TEST_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

#include <parity/core/build_info.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/case_of.hpp>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity::ops::lora_forward {
namespace {

Case torch_case(const std::string& op) {
  Case c = testing::case_of(
      op, 2024, {{"T", 3}, {"N", 5}, {"K", 7}, {"r", 2}},
      {{"scale", 2.0}, {"dtype.act", dtype_code(DType::bf16)}, {"dtype.adapter", dtype_code(DType::f32)}});
  c.layouts = {{"x", Layout{true, 0, 0}}, {"W", Layout{false, 5, 0}}, {"A", Layout{false, 0, 11}}};
  return c;
}

OpProblem problem(const std::string& op) { return materialise(find_op_family(op).def().decl, torch_case(op)); }

TEST(LoraTorch, ReturnsEachDeclaredOutputAndNothingElse) {
  for (const auto& [op, make] :
       {std::pair{"lora_forward", &make_torch_forward}, {"lora_backward", &make_torch_backward}}) {
    const OpProblem p = problem(op);
    const OpOutputs out = make(false)->run(p.call);
    const OpDecl& decl = find_op_family(op).def().decl;
    EXPECT_EQ(out.size(), decl.outputs.size()) << op;
    for (const TensorDecl& o : decl.outputs) {
      ASSERT_TRUE(out.contains(o.name)) << op << " " << o.name;
      EXPECT_EQ(out.at(o.name).shape(), p.values.shapes.at(o.name)) << op << " " << o.name;
      EXPECT_EQ(out.at(o.name).dtype(), p.call.output_dtype(o.name)) << op << " " << o.name;
    }
  }
}

TEST(LoraTorch, RefusesBadOperandsNamingThem) {
  OpProblem p = problem("lora_backward");
  p.call.inputs.at("dy") = Tensor::zeros(DType::bf16, {3, 6});
  ASSERT_TRUE(throws_input_error([&] { make_torch_backward(false)->run(p.call); }, "dy"))
      << "a dy of the wrong shape was accepted";
  p = problem("lora_forward");
  p.call.inputs.at("A") = Tensor::zeros(DType::f32, {2, 8});
  ASSERT_TRUE(throws_input_error([&] { make_torch_forward(false)->run(p.call); }, "A is [r, K]"))
      << "an A of the wrong shape was accepted";
}

TEST(LoraTorch, ReportsItsAvailabilityAndNeverFallsBackToTheCpu) {
  EXPECT_EQ(torch_unavailable_reason(false), "");
  // The headers compiled against are the LibTorch configure found (1.13.0, or 2.11.0 of
  // "2.11.0+cu130"): not another LibTorch's headers earlier on the include path.
  const std::string version = subjects::torch_impl::torch_version_text();
  EXPECT_EQ(build_info().libtorch.rfind(version, 0), 0u)
      << "headers " << version << ", configured " << build_info().libtorch;
  if (!torch_unavailable_reason(true).empty()) {
    EXPECT_THROW(make_torch_forward(true), InputError);
    EXPECT_THROW(make_torch_backward(true), InputError);
    return;
  }
#ifdef PARITY_TEST_TORCH_CUDA
  // torch-cuda computes on the device: LibTorch's CUDA allocator, which no CPU computation
  // touches, allocates during each op's call.
  for (const auto& [op, make] :
       {std::pair{"lora_forward", &make_torch_forward}, {"lora_backward", &make_torch_backward}}) {
    const OpProblem p = problem(op);
    const auto allocations = [] {
      return c10::cuda::CUDACachingAllocator::getDeviceStats(0).allocation[0].allocated;  // aggregate
    };
    const auto before = allocations();
    static_cast<void>(make(true)->run(p.call));
    EXPECT_GT(allocations(), before) << op << ": torch-cuda allocated nothing on the device";
  }
#else
  FAIL() << "a CUDA device and a LibTorch that can use it, but the test was built without LibTorch's CUDA";
#endif
}

}  // namespace
}  // namespace parity::ops::lora_forward
