// parity's glue to LibTorch for every shipped op's reference subject (torch-cpu): on 12
// generated cases per op (dtypes, layouts, optional operands and parameters as the generator
// draws them), the subject runs against this LibTorch and returns each declared output, in the
// declared shape (its dims where declared) and dtype. It checks that the glue builds, calls and converts
// (LibTorch 1.13's composed attention included); the values are not checked: what LibTorch computes is a finding
// (`parity check OP --subject torch-cpu`), never asserted. Label torch: it runs against every
// LibTorch parity builds with (ci/test: torch 2.x and 1.13).
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include <rapidcheck.h>

#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {
namespace {

constexpr int kCasesPerOp = 12;

// LibTorch's refusal of a dtype it has no kernel for on the CPU (AT_DISPATCH's message, e.g.
// LibTorch 1.13's softmax in f16): a finding about that LibTorch, printed, not a fault of
// parity's glue.
bool is_dtype_refusal(const std::string& what) { return what.find("not implemented for '") != std::string::npos; }

TEST(TorchSubjects, EveryOpsReferenceReturnsItsDeclaredOutputsWhole) {
  int ops_run = 0, ops_listed = 0;
  for (const gen::Family* family : op_families()) {
    const auto& op = dynamic_cast<const OpFamily&>(*family);
    ++ops_listed;
    family->subjects();  // registers parity's own
    const OpSubjectInfo* torch = nullptr;
    for (const auto& s : op_subjects(family->name()))
      if (s.name == "torch-cpu") torch = &s;
    ASSERT_NE(torch, nullptr) << family->name() << " has no torch-cpu subject";
    if (const std::string why = torch->unavailable_reason(); !why.empty()) {
      std::cout << family->name() << ": torch-cpu unavailable here (" << why << ")\n";
      continue;
    }
    const std::unique_ptr<OpSubject> subject = torch->make();
    const rc::Gen<Case> cases = op_case(op.def());
    int cases_run = 0;
    for (int k = 0; k < kCasesPerOp; ++k) {
      // Sizes 0 to 99 across the cases, as a run of kCasesPerOp cases draws them.
      const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), k * 100 / kCasesPerOp).value();
      const OpProblem p = materialise(op.def().decl, c);
      OpOutputs out;
      try {
        out = subject->run(subject_call(op.def().decl, p.call));  // the tensors of the declared dims
      } catch (const std::exception& e) {
        const std::string what = e.what();
        if (is_dtype_refusal(what))
          std::cout << family->name() << " torch-cpu: this LibTorch refuses " << c.summary() << ": "
                    << what.substr(0, what.find('\n')) << "\n";
        else ADD_FAILURE() << family->name() << " torch-cpu threw on " << c.summary() << ": " << what;
        continue;
      }
      for (const TensorDecl& o : op.def().decl.outputs) {
        ASSERT_TRUE(out.contains(o.name))
            << family->name() << " torch-cpu returned no " << o.name << " on " << c.summary();
        const Tensor& t = out.at(o.name);
        EXPECT_EQ(t.dtype(), p.call.output_dtype(o.name)) << family->name() << "." << o.name << " on " << c.summary();
        EXPECT_EQ(t.shape(), subject_shape(o, p.call)) << family->name() << "." << o.name << " on " << c.summary();
      }
      ++cases_run;
    }
    EXPECT_GT(cases_run, 0) << family->name() << " torch-cpu: LibTorch refused every case, nothing was checked";
    ++ops_run;
  }
  EXPECT_GE(ops_listed, 11) << "parity ships eleven op families with a LibTorch reference";
  EXPECT_GT(ops_run, 0) << "no op's LibTorch reference is available: nothing was checked";
}

}  // namespace
}  // namespace parity::ops
