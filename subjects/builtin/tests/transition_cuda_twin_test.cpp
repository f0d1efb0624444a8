// The CUDA transition kernel equals its host twin (TransitionHostTwin<StandardStep>) bit for
// bit: prev, mean, std and logp, for B in {1, 3, 8} rows, n at the reduction's lane edges
// (1, 255, 256, 257, 1000, 257 x 96), sde with and without the normaliser and cps, x / v in
// f32, bf16 and mixed, contiguous and transposed / padded / offset layouts, and sigmas from
// 1.0 (the sigma_max path) down to 1e-3, with a final step to sigma_prev = 0. Scoring the
// sampled prev on the device reproduces the sampled logp bitwise, whatever prev's layout.
// Needs a GPU: exits 77 (ctest: skipped) when cuda_unavailable_reason() is non-empty.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/core/tensor.hpp>
#include <parity/subjects/builtin/cuda_device.hpp>
#include <parity/subjects/builtin/transition_cuda.hpp>
#include <parity/subjects/builtin/transition_host.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::builtin {
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

// gtest prints a failing parameter with this.
void PrintTo(const TwinCase& c, std::ostream* os) { *os << c.name; }

// (sigma, sigma_prev) pairs, sigma_prev < sigma: 1.0 takes sigma_max, 1e-3 is tiny, and the
// last step of a schedule goes to 0 (cps: a zero std).
const std::vector<std::pair<float, float>> kSigmas = {{1.0f, 0.96f},  {1e-3f, 5e-4f}, {0.5f, 0.45f}, {0.97f, 0.9f},
                                                      {2e-3f, 1e-3f}, {0.25f, 0.2f},  {0.02f, 0.0f}, {0.75f, 0.7f}};
constexpr float kSigmaMax = 0.995f;

const Layout kTransposedPadded{true, 3, 5};
const Layout kRowPadded{false, 7, 2};
const Layout kTransposed{true, 0, 0};
const Layout kOffset{false, 0, 11};

std::vector<TwinCase> twin_cases() {
  const std::vector<std::int64_t> Bs = {1, 3, 8};
  const std::vector<std::int64_t> ns = {1, 255, 256, 257, 1000, 257 * 96};
  const std::vector<std::pair<Step, const char*>> steps = {
      {Step::sde, "sde"}, {Step::sde_plain, "sdeplain"}, {Step::cps, "cps"}};
  const std::vector<std::pair<Types, const char*>> types = {
      {Types::f32, "f32"}, {Types::bf16, "bf16"}, {Types::mixed, "mixed"}};
  std::vector<TwinCase> cases;
  for (const std::int64_t B : Bs)
    for (std::size_t ni = 0; ni < ns.size(); ++ni)
      for (const auto& [step, step_name] : steps)
        for (const auto& [type, type_name] : types)
          for (const bool strided : {false, true})
            cases.push_back({"B" + std::to_string(B) + "_n" + std::to_string(ns[ni]) + "_" + step_name + "_" +
                                 type_name + (strided ? "_strided" : ""),
                             B, ns[ni], step, type, strided, static_cast<int>(ni)});
  return cases;
}

// A [rows, cols] tensor of `dtype` with entries N(0, 1) from Philox (seed, stream).
Tensor normal(DType dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed, std::uint32_t stream) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, philox_normal(seed, stream, i));
  return t;
}

TransitionInputs make_inputs(const TwinCase& c) {
  const std::uint64_t seed = 0x7A5E + static_cast<std::uint64_t>(c.B * 100003 + c.n);
  const DType xt = c.types == Types::f32 ? DType::f32 : DType::bf16;
  const DType vt = c.types == Types::bf16 ? DType::bf16 : DType::f32;
  const Tensor x = normal(xt, c.B, c.n, seed, 0);
  const Tensor v = normal(vt, c.B, c.n, seed, 1);
  const Tensor eps = normal(DType::f32, c.B, c.n, seed, 2);
  TransitionInputs in;
  in.x = c.strided ? kTransposedPadded.place(x) : x;
  in.v = c.strided ? kRowPadded.place(v) : v;
  in.eps = c.strided ? kTransposed.place(eps) : eps;
  for (std::int64_t b = 0; b < c.B; ++b) {
    const auto& [sigma, sigma_prev] = kSigmas[static_cast<std::size_t>(b + c.rotate) % kSigmas.size()];
    in.sigma.push_back(sigma);
    in.sigma_prev.push_back(sigma_prev);
  }
  in.sigma_max = kSigmaMax;
  in.noise_level = 0.7;
  in.type = c.step == Step::cps ? StepType::cps : StepType::sde;
  in.normaliser = c.step != Step::sde_plain;
  return in;
}

void expect_bitwise(const Tensor& cuda, const Tensor& host, const char* what) {
  EXPECT_TRUE(cuda.is_contiguous()) << what << " is not contiguous";
  const BitwiseDiff diff = compare_bitwise(cuda, host);
  EXPECT_TRUE(diff.equal()) << what << " (cuda vs host twin): " << diff.describe(host.shape());
}

class TransitionCudaTwin : public ::testing::TestWithParam<TwinCase> {};

TEST_P(TransitionCudaTwin, SampleAndScoreEqualTheHostTwinBitwise) {
  const TwinCase& c = GetParam();
  SCOPED_TRACE("rerun: transition_cuda_twin_test --gtest_filter='Shapes/TransitionCudaTwin.*/" + c.name + "'");
  const TransitionInputs in = make_inputs(c);
  TransitionHostTwin<StandardStep> host;
  const std::unique_ptr<TransitionSubject> cuda = make_transition_cuda_kernel();

  const TransitionOutputs h = host.sample(in);
  const TransitionOutputs d = cuda->sample(in);
  for (std::int64_t b = 0; b < c.B; ++b) {
    ASSERT_TRUE(std::isfinite(h.logp.value_at(b))) << "degenerate case: logp row " << b;
    ASSERT_TRUE(std::isfinite(h.std.value_at(b))) << "degenerate case: std row " << b;
  }
  expect_bitwise(d.prev, h.prev, "prev");
  expect_bitwise(d.mean, h.mean, "mean");
  expect_bitwise(d.std, h.std, "std");
  expect_bitwise(d.logp, h.logp, "logp");

  // Scoring the sampled prev reproduces the sampled log-prob, in any layout of prev.
  const Tensor scored = cuda->score(in, d.prev);
  EXPECT_TRUE(compare_bitwise(scored, d.logp).equal()) << "score(prev) != sample().logp on the device";
  const Tensor scored_strided = cuda->score(in, (c.strided ? kTransposedPadded : kOffset).place(d.prev));
  EXPECT_TRUE(compare_bitwise(scored_strided, d.logp).equal())
      << "score(prev placed strided) != sample().logp on the device";
  expect_bitwise(scored, host.score(in, h.prev), "score");
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransitionCudaTwin, ::testing::ValuesIn(twin_cases()),
                         [](const ::testing::TestParamInfo<TwinCase>& info) { return info.param.name; });

// A row's log-prob depends on the row alone: the same row alone or among others gives the
// same bits (the reduction order depends on n only, never on B or the grid).
TEST(TransitionCudaTwinRows, RowLogProbDoesNotDependOnTheBatch) {
  const TwinCase c{"B8", 8, 257 * 96, Step::sde, Types::bf16, true, 0};
  const TransitionInputs all = make_inputs(c);
  const std::unique_ptr<TransitionSubject> cuda = make_transition_cuda_kernel();
  const TransitionOutputs batch = cuda->sample(all);
  for (std::int64_t b = 0; b < c.B; ++b) {
    TransitionInputs one = all;
    one.x = all.x.rows(b, b + 1);
    one.v = all.v.rows(b, b + 1);
    one.eps = all.eps.rows(b, b + 1);
    one.sigma = {all.sigma[static_cast<std::size_t>(b)]};
    one.sigma_prev = {all.sigma_prev[static_cast<std::size_t>(b)]};
    const TransitionOutputs single = cuda->sample(one);
    EXPECT_EQ(single.logp.bits_at(0), batch.logp.bits_at(b)) << "row " << b;
    EXPECT_EQ(single.std.bits_at(0), batch.std.bits_at(b)) << "row " << b;
  }
}

TEST(TransitionCudaTwinInputs, RejectsBadInputsBeforeTouchingTheDevice) {
  const TransitionInputs good = make_inputs({"B3", 3, 5, Step::sde, Types::f32, false, 0});
  const std::unique_ptr<TransitionSubject> cuda = make_transition_cuda_kernel();
  TransitionInputs bad_eps = good;
  bad_eps.eps = normal(DType::bf16, 3, 5, 1, 0);
  EXPECT_THROW(cuda->sample(bad_eps), InputError);
  TransitionInputs bad_sigma = good;
  bad_sigma.sigma.pop_back();
  EXPECT_THROW(cuda->sample(bad_sigma), InputError);
  EXPECT_THROW(cuda->score(good, normal(DType::f32, 3, 4, 1, 0)), InputError);
  EXPECT_THROW(cuda->score(good, normal(DType::bf16, 3, 5, 1, 0)), InputError);
}

}  // namespace
}  // namespace parity::subjects::builtin

int main(int argc, char** argv) {
  const std::string reason = parity::subjects::builtin::cuda_unavailable_reason();
  if (!reason.empty()) {
    std::printf("transition_cuda_twin_test skipped: %s\n", reason.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
