// transition_step and transition_score: parity's kernel at rows of their own sigma_prev
// (host_row_step) is the op's kernel where sigma_prev is the op's; each row at the case's sigma;
// transition_score of the step's prev is the step's logp; the double reference is the formula (sde
// with its normaliser, and cps); parity's host twin holds its derived bound on hand-made cases of
// both steps while the probes that change a step's arithmetic do not; the outputs are float32
// alone; the declaration's sigma_prev is the float32 subtraction.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <functional>
#include <set>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::ops::transition_step {
namespace {

const testing::OpUnderTest op{"transition_step"};

Case make_case(std::int64_t B, std::int64_t n, bool cps, double sigma, std::uint64_t seed) {
  Case c = testing::case_of("transition_step", seed, {{"B", B}, {"n", n}},
                            {{"type", cps ? 1.0 : 0.0},
                             {"step", 0.1f},
                             {"sigma_max", 0.98f},
                             {"noise_level", 0.7f},
                             {"normaliser", 1.0},
                             {"dtype.act", dtype_code(DType::f32)},
                             {"dtype.f32", dtype_code(DType::f32)}});
  for (std::int64_t b = 0; b < B; ++b) c.params["sigma." + std::to_string(b)] = sigma;
  return c;
}

// parity-host's bits, each row's sigma it is given recorded.
std::set<double>& sigmas_given() {
  static std::set<double> all;
  return all;
}
class SigmaRecorder final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& sigma = call.input("sigma");
    for (std::int64_t b = 0; b < sigma.numel(); ++b) sigmas_given().insert(sigma.value_at(b));
    return op.family().runnable("parity-host").make()->run(call);
  }
};
PARITY_REGISTER_OP_SUBJECT(sigma_recorder, "transition_step",
                           OpSubjectInfo{.name = "test-sigma-recorder",
                                         .backend = "host",
                                         .description = "parity-host, recording the sigmas it is given",
                                         .make = &make_op_subject<SigmaRecorder>});

// The row entry (the model's) at sigma_prev_of(sigma, step) gives the op's kernel's bits.
TEST(TransitionStep, TheRowEntryIsTheOpsKernelAtItsRows) {
  for (const bool cps : {false, true}) {
    const OpProblem p = materialise(op.def().decl, make_case(3, 300, cps, 0.8f, 4));
    const OpOutputs out = op.make("parity-host")->run(p.call);
    const OpOutputs rows = host_row_step({.x = p.call.input("x"),
                                          .v = p.call.input("v"),
                                          .eps = p.call.input("eps"),
                                          .sigma = std::vector<float>(3, 0.8f),
                                          .sigma_prev = std::vector<float>(3, sigma_prev_of(0.8f, 0.1f)),
                                          .settings = StepSettings::of(p.call)});
    for (const char* name : {"prev", "mean", "std", "logp"}) {
      const Tensor &a = out.at(name), &b = rows.at(name);
      ASSERT_EQ(a.shape(), b.shape()) << name;
      for (std::int64_t i = 0; i < a.numel(); ++i) EXPECT_EQ(a.bits_at(i), b.bits_at(i)) << name << i;
    }
  }
  EXPECT_THROW(host_row_step({.x = Tensor::zeros(DType::f32, {2, 3}),
                              .v = Tensor::zeros(DType::f32, {2, 3}),
                              .eps = Tensor::zeros(DType::f32, {2, 3}),
                              .sigma = {0.5f},
                              .sigma_prev = {0.25f, 0.25f}}),
               InputError);
}

// The row entry refuses an operand outside RowStep's contract, naming it, before any work: the
// host's here; the device's and LibTorch's check the same (transition_step_cuda_twin_test,
// transition_step_torch_test).
TEST(TransitionStep, TheRowEntryRefusesABadOperandNamingIt) {
  const auto f32 = [](std::vector<std::int64_t> shape) { return Tensor::zeros(DType::f32, std::move(shape)); };
  const RowStep good{
      .x = f32({2, 3}), .v = f32({2, 3}), .eps = f32({2, 3}), .sigma = {0.5f, 0.5f}, .sigma_prev = {0.25f, 0.0f}};
  EXPECT_NO_THROW(host_row_step(good));
  const auto refused = [](RowStep s, const std::string& names) {
    EXPECT_TRUE(throws_input_error([&] { host_row_step(s); }, names)) << "accepted a bad " << names;
  };
  const std::vector<std::pair<std::function<void(RowStep&)>, std::string>> bad = {
      {[&](RowStep& r) {
         r.x = r.v = r.eps = f32({2, 0});
       },
       "x must be [B, n] with n >= 1"},
      {[&](RowStep& r) { r.x = f32({6}); }, "x must be [B, n]"},
      {[](RowStep& r) {
         r.x = Tensor::zeros(DType::f16, {2, 3});
       },
       "x must be float32 or bf16"},
      {[&](RowStep& r) {
         r.v = f32({2, 4});
       },
       "v must be x's shape"},
      {[](RowStep& r) {
         r.v = Tensor::zeros(DType::f64, {2, 3});
       },
       "v must be float32 or bf16"},
      {[&](RowStep& r) {
         r.eps = f32({3, 2});
       },
       "eps must be x's shape"},
      {[](RowStep& r) {
         r.eps = Tensor::zeros(DType::bf16, {2, 3});
       },
       "eps must be float32"},
      {[](RowStep& r) { r.sigma = {0.5f}; }, "sigma and sigma_prev need one value per row of x (2), not 1 and 2"}};
  for (const auto& [make_bad, names] : bad) {
    RowStep s = good;
    make_bad(s);
    refused(s, names);
  }
}

// Each row at its own sigma (the Case's sigma.<b>): the subject's rows are the row entry's at
// those sigmas; the value travels with its row through slices, gathers and the extra batch
// row, and a padding row or the extra batch row takes row 0's value.
TEST(TransitionStep, EachRowAtItsOwnSigma) {
  Case c = make_case(3, 40, false, 0.8f, 5);
  c.params["sigma.1"] = 0.5f;
  c.params["sigma.2"] = 0.2f;
  const OpProblem p = materialise(op.def().decl, c, 1);
  ASSERT_EQ(p.values.inputs.at("sigma"), (std::vector<double>{0.8f, 0.5f, 0.2f, 0.8f}));
  const OpOutputs out = op.make("parity-host")->run(row_slice(op.def().decl, p, 0, 3).call);
  const Tensor logp =
      host_row_step({.x = p.call.input("x").rows(0, 3),
                     .v = p.call.input("v").rows(0, 3),
                     .eps = p.call.input("eps").rows(0, 3),
                     .sigma = {0.8f, 0.5f, 0.2f},
                     .sigma_prev = {sigma_prev_of(0.8f, 0.1f), sigma_prev_of(0.5f, 0.1f), sigma_prev_of(0.2f, 0.1f)},
                     .settings = StepSettings::of(p.call)})
          .at("logp");
  for (std::int64_t b = 0; b < 3; ++b) EXPECT_EQ(out.at("logp").bits_at(b), logp.bits_at(b)) << b;
  EXPECT_EQ(row_slice(op.def().decl, p, 1, 3).values.inputs.at("sigma"), (std::vector<double>{0.5f, 0.2f}));
  const OpProblem g = row_gather(op.def().decl, p, {2, kZeroRow, 1});
  EXPECT_EQ(g.values.inputs.at("sigma"), (std::vector<double>{0.2f, 0.8f, 0.5f}));
  EXPECT_EQ(g.call.input("sigma").value_at(0), 0.2f);
}

TEST(TransitionStep, ARowsSigmaIsTheCasesAndTakesNoPatch) {
  Case c = make_case(2, 4, false, 0.5, 1);
  c.patches.push_back({"sigma", 0, 0x3f000000, DType::f32});
  EXPECT_THROW(check_contract(op.def().decl, c), InputError);
  c.patches.clear();
  c.params.erase("sigma.1");
  EXPECT_THROW(check_contract(op.def().decl, c), InputError);  // every row needs its value
  c.params["sigma.1"] = 0.1f;
  EXPECT_THROW(check_contract(op.def().decl, c), InputError);  // outside [0.2, 1]
  c.params["sigma.1"] = 0.7f;                                  // not a drawn value, inside the contract
  EXPECT_NO_THROW(check_contract(op.def().decl, c));
  c.params["sigma.2"] = 0.5f;  // no row 2
  EXPECT_THROW(check_contract(op.def().decl, c), InputError);
  // Shrinking B takes the rows' values with it; conform gives a row without one the first value.
  c.params.erase("sigma.2");
  c.dims["B"] = 1;
  const Case one = op_rules(op.def().decl).conform(c);
  EXPECT_FALSE(one.params.contains("sigma.1"));
  c.dims["B"] = 3;
  EXPECT_EQ(op_rules(op.def().decl).conform(c).params.at("sigma.2"), 1.0);
}

// Under --param sigma=V every row the subject is given is at V: the case's rows, batch_vs_batch's
// extra row and rows_padded's padding rows (which take the case's row 0's value).
TEST(TransitionStep, ARestrictedSigmaReachesTheAddedRows) {
  const OpFamily& f = op.family();
  for (const char* property : {"batch_vs_batch", "rows_padded"}) {
    sigmas_given().clear();
    gen::RunConfig config;
    config.cases = 20;
    config.seed = 3;
    config.shrink = false;
    config.write_reproducer = false;
    config.restrictions.params["sigma"] = 0.5;
    const gen::RunResult r = f.run("test-sigma-recorder", property, config);
    EXPECT_TRUE(r.passed) << property << ": " << r.message;
    EXPECT_EQ(sigmas_given(), (std::set<double>{0.5})) << property;
  }
}

// A per-row input takes its declared values, not scales: a declaration with several is a fault.
TEST(TransitionStep, APerRowInputWithScalesIsRefused) {
  OpDecl d = op.def().decl;
  for (auto& t : d.inputs)
    if (t.name == "sigma") t.scales = {1.0, 0.5};
  EXPECT_THROW(validate(d), std::logic_error);
}

// --param naming no parameter lists the per-row inputs it may name too.
TEST(TransitionStep, AnUnknownParamListsSigma) {
  const auto restrict_sigmas = [] { op.family().check_restrictions({.params = {{"sigmas", 0.5}}}); };
  EXPECT_TRUE(throws_input_error(restrict_sigmas, ", sigma (a value per row))")) << "no refusal";
}

// transition_score: parity's kernel scores the step's own prev to the step's logp, bitwise, and its
// reference scores the step's reference prev as the step's reference does.
TEST(TransitionScore, ScoresTheStepsPrevToTheStepsLogp) {
  const testing::OpUnderTest scoring_op{"transition_score"};
  const OpDef& score = scoring_op.def();
  for (const bool cps : {false, true}) {
    Case c = make_case(2, 50, cps, 0.8f, 9);
    const std::unique_ptr<OpSubject> host = scoring_op.make("parity-host");
    c.family = "transition_step";
    OpProblem step = materialise(op.def().decl, c);
    const OpOutputs sampled = op.make("parity-host")->run(step.call);
    OpCall scoring = step.call;
    scoring.inputs.erase("eps");
    scoring.inputs.insert_or_assign("prev", sampled.at("prev"));
    scoring.output_dtypes = {{"logp", DType::f32}};
    const Tensor logp = host->run(scoring).at("logp");
    for (std::int64_t b = 0; b < 2; ++b) EXPECT_EQ(logp.bits_at(b), sampled.at("logp").bits_at(b)) << b;
    // The step's reference prev, scored: the step's reference logp.
    const auto ref = op.def().oracle(step.values);
    step.values.inputs["prev"] = ref.at("prev");
    step.values.inputs.erase("eps");
    step.values.shapes["prev"] = {2, 50};
    step.values.shapes.erase("eps");
    step.values.shapes.erase("mean");
    step.values.shapes.erase("std");
    const auto scored = score.oracle(step.values);
    for (std::size_t b = 0; b < 2; ++b)
      EXPECT_NEAR(scored.at("logp")[b], ref.at("logp")[b], 1e-9 * (1 + std::fabs(ref.at("logp")[b])));
  }
}

// batch_vs_batch (8 rows and 9) fails on a kernel whose reduction tree changes above 8 rows,
// where the row alone agrees with the batch (rows_independent), and holds on parity's kernel.
TEST(TransitionStep, TreeAbove8RowsFailsBatchVsBatchWhereTheSingleRowAgrees) {
  const OpFamily& f = op.family();
  Case c = make_case(8, 4096, false, 0.5, 3);
  for (std::int64_t b = 0; b < 8; ++b) c.params["sigma." + std::to_string(b)] = 0.5f + 0.01f * static_cast<float>(b);
  c.probe_row = 2;
  // One large noise element in the probe row: the lane that holds its log-prob term rounds at its
  // scale, so the grouping of the other terms shows in the total.
  c.patches.push_back({"eps", c.probe_row * 4096, 0x447A0000u});  // 1000
  EXPECT_TRUE(f.check("probe-tree-reduction-above-8-rows", "batch_vs_batch", c).fails());
  EXPECT_EQ(f.check("probe-tree-reduction-above-8-rows", "rows_independent", c).outcome, Outcome::holds);
  EXPECT_EQ(f.check("parity-host", "batch_vs_batch", c).outcome, Outcome::holds);
}

TEST(TransitionStep, TheDoubleReferenceIsTheFormula) {
  const double sigma = 0.5, sigma_prev = sigma_prev_of(0.5, 0.1f), a = 0.7f;
  for (const bool cps : {false, true}) {
    Case c = make_case(2, 5, cps, sigma, 3);
    c.params["step"] = 0.1f;
    const OpProblem p = materialise(op.def().decl, c);
    const auto ref = op.def().oracle(p.values);
    const Tensor &x = p.call.input("x"), &v = p.call.input("v"), &eps = p.call.input("eps");
    const double dt = sigma_prev - sigma;
    const double std =
        cps ? sigma_prev * static_cast<float>(std::sin(a * M_PI / 2)) : std::sqrt(sigma / (1 - sigma)) * a;
    const double noise = cps ? std : std * std::sqrt(-dt);
    for (std::int64_t b = 0; b < 2; ++b) {
      double logp = 0;
      for (std::int64_t i = 0; i < 5; ++i) {
        const double xi = x.value_at(b * 5 + i), vi = v.value_at(b * 5 + i), e = eps.value_at(b * 5 + i);
        const double mean =
            cps ? (xi - sigma * vi) * (1 - sigma_prev) +
                      (xi + vi * (1 - sigma)) * std::sqrt(sigma_prev * sigma_prev - std * std)
                : xi * (1 + std * std / (2 * sigma) * dt) + vi * (1 + std * std * (1 - sigma) / (2 * sigma)) * dt;
        EXPECT_NEAR(ref.at("mean")[static_cast<std::size_t>(b * 5 + i)], mean, 1e-12 * (1 + std::fabs(mean)));
        const double d = noise * e;
        // 2 pi of a float32 pi, as the Python formula's torch.as_tensor(math.pi) holds it.
        const double two_pi = 2.0 * static_cast<double>(static_cast<float>(M_PI));
        logp += cps ? -d * d : -d * d / (2 * noise * noise) - std::log(noise) - std::log(std::sqrt(two_pi));
      }
      EXPECT_NEAR(ref.at("logp")[static_cast<std::size_t>(b)], logp / 5, 1e-9 * (1 + std::fabs(logp))) << cps;
      EXPECT_NEAR(ref.at("std")[static_cast<std::size_t>(b)], std, 1e-12) << cps;
    }
  }
}

TEST(TransitionStep, WithinItsBoundWhereTheStepProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u}) {
    for (const bool cps : {false, true}) {
      const Verdict v = forward_accuracy(op.def(), make_case(3, 700, cps, 0.8f, seed), *op.make("parity-host"));
      EXPECT_TRUE(v.holds()) << v.detail;
    }
    const Case sde = make_case(3, 700, false, 0.8f, seed);
    for (const char* probe : {"probe-no-sqrt-dt", "probe-sum-not-mean", "probe-normaliser-dropped"})
      EXPECT_TRUE(forward_accuracy(op.def(), sde, *op.make(probe)).fails()) << probe;
  }
}

// The declaration's sigma_prev is the float32 subtraction sigma - step.
TEST(TransitionStep, TheDeclarationsSigmaPrevIsTheFloat32Subtraction) {
  for (const float sigma : {1.0f, 0.8f, 0.5f, 0.2f})
    for (const float step : {0.1f, 0.02f, 0.001f})
      EXPECT_EQ(sigma_prev_of(sigma, step), sigma - step) << sigma << " - " << step;  // float32 subtraction
}

TEST(TransitionStep, TheOutputsAreFloat32Alone) {
  Case c = make_case(2, 4, false, 0.5, 1);
  c.params["dtype.f32"] = dtype_code(DType::bf16);
  EXPECT_THROW(check_contract(op.def().decl, c), InputError);
}

}  // namespace
}  // namespace parity::ops::transition_step
