// Every shipped op's batch-shape probes (batch_shape_probes.hpp) are correct kernels alone: on
// generated cases, a probe gives parity's host twin's bits on one row (its trigger unmet), and the
// other plan it switches to is within the derived accuracy bound on a batch that triggers it (the
// last row patched to +0). That each is caught is <op>_probes_test's (label probes).
#include <gtest/gtest.h>

#include <string>

#include <rapidcheck.h>

#include <parity/ops/framework/batch_shape_probes.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {
namespace {

constexpr int kCasesPerOp = 6;

const OpSubjectInfo* subject(const std::string& op, const std::string& name) {
  for (const auto& s : op_subjects(op))
    if (s.name == name) return &s;
  return nullptr;
}

// `c` with `T` rows; its patches outside them dropped.
Case with_rows(const OpDecl& d, Case c, std::int64_t T) {
  c.dims[d.row_extent] = T;
  c.probe_row = 0;
  std::erase_if(c.patches, [&](const Patch& p) {
    std::int64_t n = 1;
    for (const std::int64_t e : eval_shape(d.tensor(p.operand), c.dims)) n *= e;
    return p.index >= n;
  });
  return c;
}

// `c` with the last row of the op's first row-led input +0 (a padding row).
Case with_zero_last_row(const OpDecl& d, Case c) {
  const OpProblem p = materialise(d, c);
  for (const auto& t : d.inputs) {
    if (!d.has_rows(t) || !p.call.has_input(t.name)) continue;
    const Tensor& x = p.call.inputs.at(t.name);
    const std::int64_t width = x.numel() / x.dim(0);
    for (std::int64_t i = x.numel() - width; i < x.numel(); ++i)
      c.patches.push_back({.operand = t.name, .index = i, .bits = 0, .dtype = x.dtype()});
    return c;
  }
  return c;
}

TEST(BatchShapeProbes, EachIsACorrectKernelAlone) {
  int ops = 0;
  for (const gen::Family* family : op_families()) {
    const auto& op = dynamic_cast<const OpFamily&>(*family);
    family->subjects();  // registers parity's own
    const OpSubjectInfo* padded = subject(family->name(), "probe-padded-batch-plan");
    if (!padded) continue;
    ++ops;
    const OpDecl& d = op.def().decl;
    const rc::Gen<Case> cases = op_case(op.def());
    int other_plan_cases = 0;
    for (int k = 0; k < kCasesPerOp; ++k) {
      const Case c = cases(rc::Random(static_cast<std::uint64_t>(k) + 1), k * 100 / kCasesPerOp).value();
      for (const char* name : {"probe-sorted-batch-plan", "probe-padded-batch-plan", "probe-plan-at-43-rows"}) {
        const OpSubjectInfo* probe = subject(family->name(), name);
        if (!probe) continue;
        const Verdict v = cross_backend_bitwise(op.def(), with_rows(d, c, 1), *probe->make(),
                                                *subject(family->name(), "parity-host")->make());
        EXPECT_FALSE(v.fails()) << family->name() << " " << name << " on one row: " << v.detail;
      }
      const Case zero_row = with_zero_last_row(d, c);
      const auto probe = padded->make();
      if (dynamic_cast<const BatchShapeProbe&>(*probe).triggered(subject_call(d, materialise(d, zero_row).call)))
        ++other_plan_cases;
      const Verdict v = forward_accuracy(op.def(), zero_row, *probe);
      EXPECT_FALSE(v.fails()) << family->name() << "'s other plan on " << zero_row.summary() << ": " << v.detail;
    }
    EXPECT_GT(other_plan_cases, 0) << family->name() << ": no case ran the other plan, nothing was checked";
  }
  EXPECT_GE(ops, 7) << "parity's ops with another plan: rms_norm, its backward, softmax, layer_norm, linear, sdpa and "
                       "its backward";
}

}  // namespace
}  // namespace parity::ops
