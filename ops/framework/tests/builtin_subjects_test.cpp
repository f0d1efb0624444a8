// The framework's additions for shipped ops: register_builtin_subjects registers the host twin,
// the CUDA kernel (its host twin named, unavailable where this build or machine has no CUDA)
// and LibTorch's reference subject under their fixed names, and every op parity ships registers
// all three; Eval::param_value gives a variant-selecting parameter's plain value in every
// instantiation and names an unknown one.
#include <gtest/gtest.h>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {
namespace {

class Nothing : public OpSubject {
 public:
  OpOutputs run(const OpCall&) override { return {}; }
};

std::unique_ptr<OpSubject> make_nothing() { return std::make_unique<Nothing>(); }
std::string no_torch() { return "no torch here"; }

TEST(BuiltinSubjects, RegistersTheHostTwinTheCudaKernelAndTheReference) {
  register_builtin_subjects("builtin_test_op", {.kernel = "a test kernel",
                                                .make_host = &make_nothing,
                                                .make_cuda = nullptr,
                                                .torch = torch_subject("a test reference", &make_nothing, &no_torch)});
  const auto& s = op_subjects("builtin_test_op");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "parity-host");
  EXPECT_EQ(s[0].description, "a test kernel, host twin");
  EXPECT_EQ(s[0].unavailable_reason(), "");
  EXPECT_NE(s[0].make(), nullptr);
  EXPECT_EQ(s[1].name, "parity-cuda");
  EXPECT_EQ(s[1].host_twin, "parity-host");
  EXPECT_EQ(s[1].backend, "cuda");
  EXPECT_NE(s[1].unavailable_reason(), "") << "no CUDA kernel was given: it must never run";
  EXPECT_EQ(s[2].name, "torch-cpu");
  EXPECT_EQ(s[2].kind, subjects::SubjectKind::reference);
  EXPECT_EQ(s[2].unavailable_reason(), "no torch here");
}

TEST(BuiltinSubjects, EveryShippedOpHasItsHostTwinItsCudaKernelAndItsReference) {
  ASSERT_FALSE(op_families().empty());
  for (const gen::Family* f : op_families()) {
    f->subjects();  // registers parity's own
    const auto& s = op_subjects(f->name());
    const auto named = [&](const std::string& name) {
      for (const auto& info : s)
        if (info.name == name) return &info;
      return static_cast<const OpSubjectInfo*>(nullptr);
    };
    ASSERT_NE(named("parity-host"), nullptr) << f->name();
    const OpSubjectInfo* cuda = named("parity-cuda");
    ASSERT_NE(cuda, nullptr) << f->name();
    EXPECT_EQ(cuda->backend, "cuda") << f->name();
    EXPECT_EQ(cuda->host_twin, "parity-host") << f->name();
    ASSERT_NE(named("torch-cpu"), nullptr) << f->name();
    EXPECT_EQ(named("torch-cpu")->kind, subjects::SubjectKind::reference) << f->name();
    // This build links LibTorch: the reference is the op's own, not PARITY_OP_TORCH's stand-in.
    EXPECT_NE(named("torch-cpu")->description, torch_not_linked().description)
        << f->name() << ": its LibTorch reference was not compiled in (PARITY_HAVE_TORCH undefined in parity_ops)";
  }
}

TEST(EvalParamValue, IsThePlainValueInEveryRealAndNamesAnUnknownParameter) {
  OpValues v;
  v.params = {{"interleaved", 1.0}};
  const Arithmetic ar;
  const Eval<Bounded> bounded(v, ar);
  const Eval<double> plain(v, ar);
  EXPECT_EQ(bounded.param_value("interleaved"), 1.0);
  EXPECT_EQ(plain.param_value("interleaved"), 1.0);
  ASSERT_TRUE(throws_input_error([&] { (void)plain.param_value("causal"); }, "'causal'"))
      << "an unknown parameter was accepted";
}

}  // namespace
}  // namespace parity::ops
