// parity's CUDA transition kernel equals its host twin bit for bit: at rows of their own sigma
// and sigma_prev (cuda_row_step against host_row_step: prev, mean, std, logp) for B in {1, 3, 8}
// rows, n at the reduction's lane edges (1, 255, 256, 257, 1000, 257 x 96), sde with and without
// the normaliser and cps, x / v in f32, bf16 and mixed, contiguous and transposed / padded /
// offset layouts, and sigmas from 1.0 (the sigma_max path) down to 1e-3, with a final step to
// sigma_prev = 0, its outputs contiguous; in each such case, row by row, the ops' CUDA kernels
// sample as the row entry does and score the device's prev (contiguous and strided) to the
// device's logp and the host twin's score; a row's log-prob is the same alone and in the batch;
// the ops' CUDA kernels (sampling and scoring) return their host twins' bits on a strided case;
// the row entry refuses a bad operand before touching the device. Needs a GPU: exits 77
// (ctest: skipped) when cuda_unavailable_reason() is non-empty.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>

namespace parity::ops::transition_step {
namespace {

enum class Step { sde, sde_plain, cps };  // sde_plain: sde without the normaliser
enum class Types { f32, bf16, mixed };    // mixed: x bf16, v f32

struct TwinCase {
  std::string name;  // gtest name: rerun one case with --gtest_filter=*/<name>
  std::int64_t B, n;
  Step step;
  Types types;
  bool strided;
  int rotate;  // row b takes sigma pair (b + rotate) % kSigmas.size()
};

void PrintTo(const TwinCase& c, std::ostream* os) { *os << c.name; }

// (sigma, sigma_prev) pairs, sigma_prev < sigma: 1.0 takes sigma_max, 1e-3 is tiny, and the
// last step of a schedule goes to 0 (cps: a zero std).
const std::vector<std::pair<float, float>> kSigmas = {{1.0f, 0.96f},  {1e-3f, 5e-4f}, {0.5f, 0.45f}, {0.97f, 0.9f},
                                                      {2e-3f, 1e-3f}, {0.25f, 0.2f},  {0.02f, 0.0f}, {0.75f, 0.7f}};

std::vector<TwinCase> twin_cases() {
  const std::vector<std::pair<Step, const char*>> steps = {
      {Step::sde, "sde"}, {Step::sde_plain, "sdeplain"}, {Step::cps, "cps"}};
  const std::vector<std::pair<Types, const char*>> types = {
      {Types::f32, "f32"}, {Types::bf16, "bf16"}, {Types::mixed, "mixed"}};
  const std::vector<std::int64_t> ns = {1, 255, 256, 257, 1000, 257 * 96};
  std::vector<TwinCase> cases;
  for (const std::int64_t B : {1, 3, 8})
    for (std::size_t ni = 0; ni < ns.size(); ++ni)
      for (const auto& [step, step_name] : steps)
        for (const auto& [type, type_name] : types)
          for (const bool strided : {false, true})
            cases.push_back({"B" + std::to_string(B) + "_n" + std::to_string(ns[ni]) + "_" + step_name + "_" +
                                 type_name + (strided ? "_strided" : ""),
                             B, ns[ni], step, type, strided, static_cast<int>(ni)});
  return cases;
}

RowStep row_step_of(const TwinCase& c) {
  const std::uint64_t seed = 0x7A5E + static_cast<std::uint64_t>(c.B * 100003 + c.n);
  const Tensor x = normal_tensor(c.types == Types::f32 ? DType::f32 : DType::bf16, c.B, c.n, seed, 0);
  const Tensor v = normal_tensor(c.types == Types::bf16 ? DType::bf16 : DType::f32, c.B, c.n, seed, 1);
  const Tensor eps = normal_tensor(DType::f32, c.B, c.n, seed, 2);
  RowStep s{.x = c.strided ? Layout{true, 3, 5}.place(x) : x,
            .v = c.strided ? Layout{false, 7, 2}.place(v) : v,
            .eps = c.strided ? Layout{true, 0, 0}.place(eps) : eps,
            .settings = {.cps = c.step == Step::cps,
                         .normaliser = c.step != Step::sde_plain,
                         .sigma_max = 0.995f,
                         .noise_level = 0.7}};
  for (std::int64_t b = 0; b < c.B; ++b) {
    const auto& [sigma, sigma_prev] = kSigmas[static_cast<std::size_t>(b + c.rotate) % kSigmas.size()];
    s.sigma.push_back(sigma);
    s.sigma_prev.push_back(sigma_prev);
  }
  return s;
}

void expect_same_bits(const OpOutputs& cuda, const OpOutputs& host) {
  for (const auto& [name, h] : host) {
    const BitwiseDiff diff = compare_bitwise(cuda.at(name), h);
    EXPECT_TRUE(diff.equal()) << name << " (cuda vs host twin): " << diff.describe(h.shape());
  }
}

class TransitionCudaTwin : public ::testing::TestWithParam<TwinCase> {};

TEST_P(TransitionCudaTwin, TheRowEntryEqualsTheHostTwinBitwise) {
  const RowStep s = row_step_of(GetParam());
  const OpOutputs host = host_row_step(s);
  for (std::int64_t b = 0; b < GetParam().B; ++b)
    ASSERT_TRUE(std::isfinite(host.at("logp").value_at(b))) << "degenerate case: logp row " << b;
  const OpOutputs device = cuda_row_step(s);
  for (const auto& [name, t] : device) EXPECT_TRUE(t.is_contiguous()) << name << " is not contiguous";
  expect_same_bits(device, host);
}

// Scoring through the ops' CUDA kernels, row by row (a call steps every row by one step): row b
// of the case's call at row b's step (sigma_b - sigma_prev_b in double, which float32 gives back
// as sigma_prev_b) samples on the device as the row entry does, and transition_score of the
// device's prev, contiguous and strided, gives the device's sampled logp and the host twin's
// score, bit for bit.
TEST_P(TransitionCudaTwin, ScoringTheDevicesPrevGivesItsLogpAndTheHostsScore) {
  const RowStep s = row_step_of(GetParam());
  const OpOutputs rows = host_row_step(s);
  const auto sampling = make_cuda_kernel();
  const auto scoring = make_score_cuda_kernel();
  for (std::int64_t b = 0; b < GetParam().B; ++b) {
    const auto row = static_cast<std::size_t>(b);
    OpCall call = row_step_call(s);
    call.params["step"] = static_cast<double>(s.sigma[row]) - static_cast<double>(s.sigma_prev[row]);
    ASSERT_EQ(sigma_prev_of(s.sigma[row], call.param("step")), s.sigma_prev[row]) << "row " << b;
    const OpOutputs device = sampling->run(call);
    ASSERT_EQ(device.at("logp").bits_at(b), rows.at("logp").bits_at(b)) << "row " << b << ": op kernel vs row entry";
    OpCall score = call;
    score.inputs.erase("eps");
    score.output_dtypes = {{"logp", DType::f32}};
    for (const bool strided : {false, true}) {
      score.inputs.insert_or_assign("prev", strided ? Layout{true, 3, 5}.place(device.at("prev")) : device.at("prev"));
      const Tensor scored = scoring->run(score).at("logp");
      EXPECT_EQ(scored.bits_at(b), device.at("logp").bits_at(b))
          << "row " << b << (strided ? ", prev strided" : "") << ": score(prev) != sampled logp on the device";
      EXPECT_EQ(scored.bits_at(b), ScoreHost<Standard>().run(score).at("logp").bits_at(b))
          << "row " << b << (strided ? ", prev strided" : "") << ": device score != host twin's";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransitionCudaTwin, ::testing::ValuesIn(twin_cases()),
                         [](const ::testing::TestParamInfo<TwinCase>& info) { return info.param.name; });

// A row's log-prob depends on the row alone: the same row alone or among others gives the same
// bits (the reduction order depends on n only, never on B or the grid).
TEST(TransitionCudaTwinRows, RowLogProbDoesNotDependOnTheBatch) {
  const RowStep all = row_step_of({"B8", 8, 257 * 96, Step::sde, Types::bf16, true, 0});
  const OpOutputs batch = cuda_row_step(all);
  for (std::int64_t b = 0; b < 8; ++b) {
    const auto row = static_cast<std::size_t>(b);
    const OpOutputs single = cuda_row_step({.x = all.x.rows(b, b + 1),
                                            .v = all.v.rows(b, b + 1),
                                            .eps = all.eps.rows(b, b + 1),
                                            .sigma = {all.sigma[row]},
                                            .sigma_prev = {all.sigma_prev[row]},
                                            .settings = all.settings});
    EXPECT_EQ(single.at("logp").bits_at(0), batch.at("logp").bits_at(b)) << "row " << b;
    EXPECT_EQ(single.at("std").bits_at(0), batch.at("std").bits_at(b)) << "row " << b;
  }
}

// The ops' CUDA kernels on a strided case of each: the host twins' bits; scoring the device's
// prev gives the device's logp.
TEST(TransitionCudaTwinOps, SamplingAndScoringEqualTheHostTwinsBitwise) {
  const RowStep s = row_step_of({"B3", 3, 1000, Step::sde, Types::mixed, true, 2});
  OpCall call = row_step_call(s);
  call.params["step"] = 0.02f;
  for (std::int64_t b = 0; b < 3; ++b) call.inputs.at("sigma").set_value(b, 1.0 - 0.25 * static_cast<double>(b));
  const OpOutputs device = make_cuda_kernel()->run(call);
  expect_same_bits(device, StepHost<Standard>().run(call));
  OpCall scoring = call;
  scoring.inputs.erase("eps");
  scoring.inputs.insert_or_assign("prev", Layout{false, 0, 11}.place(device.at("prev")));
  scoring.output_dtypes = {{"logp", DType::f32}};
  const OpOutputs scored = make_score_cuda_kernel()->run(scoring);
  expect_same_bits(scored, ScoreHost<Standard>().run(scoring));
  EXPECT_TRUE(compare_bitwise(scored.at("logp"), device.at("logp")).equal());
}

// The row entry refuses a bad operand, naming it, before any work on the device.
TEST(TransitionCudaTwinInputs, RejectsBadInputsBeforeTouchingTheDevice) {
  const RowStep good = row_step_of({"B3", 3, 5, Step::sde, Types::f32, false, 0});
  RowStep bad_eps = good;
  bad_eps.eps = Tensor::zeros(DType::bf16, {3, 5});
  EXPECT_THROW(cuda_row_step(bad_eps), InputError);
  RowStep bad_v = good;
  bad_v.v = Tensor::zeros(DType::f32, {3, 4});
  EXPECT_THROW(cuda_row_step(bad_v), InputError);
  RowStep bad_sigma = good;
  bad_sigma.sigma.pop_back();
  EXPECT_THROW(cuda_row_step(bad_sigma), InputError);
  RowStep empty_rows = good;
  empty_rows.x = empty_rows.v = empty_rows.eps = Tensor::zeros(DType::f32, {3, 0});
  EXPECT_THROW(cuda_row_step(empty_rows), InputError);
}

}  // namespace
}  // namespace parity::ops::transition_step
