// The LoRA family above its ops (lora_family.hpp, lora_properties.hpp), where its properties must
// not simply hold or fail:
//  - zero_adapter_gradients on a correct subject of lora_backward in another permitted evaluation
//    order (plain float32, the scale first: dlow = s dy, no fma) where some order may overflow
//    float32 while the exact dA stays 0: at dy = bf16 max with s = 2 (s dy overflows, the exact
//    dB stays finite), at A = 3e38 (the exact dB itself is past float32), at dy = 7.5e37, A = 3
//    (dB is, s dy is not) and at s dy = FLT_MAX exactly (no intermediate reaches past it): the
//    subject's Inf dB is accepted, not failed, and the verdict names the intermediate that
//    overflows, or none;
//  - zero_adapter_gradients on parity's host twin with a NaN dB where no order may overflow, and
//    with a dB or dA of the wrong shape or dtype: failed, naming it;
//  - base_frozen on a backward that returns a dW, or another output beyond dx, dA and dB: failed,
//    naming it; on subjects that write W's storage (a logical element in the forward or the
//    backward, a padding element of a padded W in the forward): failed, naming the call; on
//    parity's kernel: holds;
//  - `parity check lora` (LoraFamily::run) under --max T=3 and reach_elements: every case the
//    subject is given within them; contiguous cases where the subject's forward takes no other;
//  - the family's subjects: lora_backward's but parity's op probes, then the family's own probes;
//    a Case of the family's former format refused naming case.params.
// Test subjects only: not shipped as kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/families/lora/lora_family.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_backward/tests/lora_backward_test_support.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/run_property.hpp>
#include <parity/properties/tests/holds_text.hpp>

namespace {

using namespace parity::ops::lora_backward::testing;  // at, low_rank, ..., and the LoRA types

// The scale first, plain float32 (the file's comment).
class ScaleFirst final : public BackwardOf {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), R = r(in);
    std::vector<float> dlow(T * N), dh(T * R, 0.0f);
    for (std::int64_t i = 0; i < T * N; ++i) dlow[i] = in.scale * at(dy, i);
    LoraGradients g = zero_gradients(in);
    set_dB_scaled_dy(g, in, dy, low_rank(in));
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t j = 0; j < R; ++j)
        for (std::int64_t n = 0; n < N; ++n) dh[t * R + j] = dh[t * R + j] + dlow[t * N + n] * at(in.B, n * R + j);
    for (std::int64_t j = 0; j < R; ++j)
      for (std::int64_t k = 0; k < K; ++k) {
        float acc = 0;
        for (std::int64_t t = 0; t < T; ++t) acc = acc + dh[t * R + j] * at(in.x, t * K + k);
        g.dA.set_value(j * K + k, static_cast<double>(acc));
      }
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t k = 0; k < K; ++k) {
        float base = 0, low = 0;
        for (std::int64_t n = 0; n < N; ++n) base = base + at(dy, t * N + n) * at(in.W, n * K + k);
        for (std::int64_t j = 0; j < R; ++j) low = low + dh[t * R + j] * at(in.A, j * K + k);
        g.dx.set_value(t * K + k, static_cast<double>(base + low));
      }
    return g;
  }

 private:
  static std::int64_t r(const LoraInputs& in) { return in.A.dim(0); }
};

// parity's host twin with its gradients changed by `edit` (a wrong kernel).
template <void (*edit)(LoraGradients&)>
class EditedTwin final : public BackwardOf {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = host_backward(in, dy);
    edit(g);
    return g;
  }
};

void nan_dB(LoraGradients& g) { g.dB.set_value(0, std::numeric_limits<double>::quiet_NaN()); }
void oversized_dB(LoraGradients& g) { g.dB = Tensor::zeros(DType::f32, {g.dB.dim(0) + 1, g.dB.dim(1)}); }
void bf16_dA(LoraGradients& g) { g.dA = Tensor::zeros(DType::bf16, g.dA.shape()); }

// parity's host twin with one more output `extra` (a gradient of W under a name of its own).
template <const char* extra>
class ExtraOutput final : public parity::ops::OpSubject {
 public:
  parity::ops::OpOutputs run(const parity::ops::OpCall& call) override {
    parity::ops::OpOutputs out = twin_.run(call);
    out.emplace(extra, Tensor::zeros(DType::f32, call.input("W").shape()));
    return out;
  }

 private:
  parity::ops::lora_forward::BackwardHost<parity::ops::lora_forward::StandardArithmetic> twin_;
};
constexpr char kDW[] = "dW", kGradW[] = "grad_W";

// parity's host twin `Twin` that first flips a bit of W's storage element `element` through
// const_cast (a kernel writing the frozen weight): element 0 is W[0, 0], kWPadding a padding
// element of padded_case()'s W.
template <class Twin, std::int64_t element>
class WritesW final : public parity::ops::OpSubject {
 public:
  parity::ops::OpOutputs run(const parity::ops::OpCall& call) override {
    auto& W = const_cast<Tensor&>(call.input("W"));
    W.storage_bytes()[static_cast<std::size_t>(element) * parity::dtype_size(W.dtype())] ^= std::byte{1};
    return twin_.run(call);
  }

 private:
  Twin twin_;
};
using ForwardTwin = parity::ops::lora_forward::ForwardHost<parity::ops::lora_forward::StandardArithmetic>;
using BackwardTwin = parity::ops::lora_forward::BackwardHost<parity::ops::lora_forward::StandardArithmetic>;
constexpr std::int64_t kWPadding = 5;  // W [4, 5] row-major with ld_pad 2: storage 5 and 6 pad row 0

template <void (*edit)(LoraGradients&)>
parity::ops::OpSubjectInfo edited_twin(const char* name) {
  return {.name = name,
          .backend = "host",
          .description = "parity's host twin, its gradients changed (lora_adapter_properties_test)",
          .make = &parity::ops::make_op_subject<EditedTwin<edit>>};
}

parity::ops::OpSubjectInfo test_subject(const char* name, std::unique_ptr<parity::ops::OpSubject> (*make)()) {
  return {.name = name, .backend = "host", .description = "lora_adapter_properties_test", .make = make};
}

PARITY_REGISTER_OP_SUBJECT(twin_nan_dB, "lora_backward", edited_twin<&nan_dB>("twin-nan-dB"));
PARITY_REGISTER_OP_SUBJECT(twin_oversized_dB, "lora_backward", edited_twin<&oversized_dB>("twin-oversized-dB"));
PARITY_REGISTER_OP_SUBJECT(twin_bf16_dA, "lora_backward", edited_twin<&bf16_dA>("twin-bf16-dA"));
PARITY_REGISTER_OP_SUBJECT(twin_dW, "lora_backward",
                           test_subject("twin-dW", &parity::ops::make_op_subject<ExtraOutput<kDW>>));
PARITY_REGISTER_OP_SUBJECT(twin_grad_W, "lora_backward",
                           test_subject("twin-grad-W", &parity::ops::make_op_subject<ExtraOutput<kGradW>>));
PARITY_REGISTER_OP_SUBJECT(scale_first, "lora_backward",
                           test_subject("scale-first", &parity::ops::make_op_subject<ScaleFirst>));
// parity's host twin that records the largest T and the largest operand it is given.
struct Drawn {
  static inline std::int64_t max_T = 0, max_elements = 0;
};
class RecordsExtents final : public parity::ops::OpSubject {
 public:
  parity::ops::OpOutputs run(const parity::ops::OpCall& call) override {
    Drawn::max_T = std::max(Drawn::max_T, call.input("x").dim(0));
    for (const auto& [name, t] : call.inputs) Drawn::max_elements = std::max(Drawn::max_elements, t.numel());
    return twin_.run(call);
  }

 private:
  BackwardTwin twin_;
};
PARITY_REGISTER_OP_SUBJECT(records_extents, "lora_backward",
                           test_subject("records-extents", &parity::ops::make_op_subject<RecordsExtents>));

// A forward that takes contiguous operands only, beside a backward that takes any (records-extents'
// twin): the family's cases for it are contiguous. It records whether it was given any other.
struct Strided {
  static inline bool given = false;
};
class RecordsStrided final : public parity::ops::OpSubject {
 public:
  parity::ops::OpOutputs run(const parity::ops::OpCall& call) override {
    for (const auto& [name, t] : call.inputs) Strided::given = Strided::given || !t.is_contiguous();
    return twin_.run(call);
  }

 private:
  ForwardTwin twin_;
};
PARITY_REGISTER_OP_SUBJECT(contiguous_forward_f, "lora_forward",
                           {.name = "contiguous-forward",
                            .backend = "host",
                            .description = "lora_adapter_properties_test",
                            .capabilities = {.strided_layouts = false},
                            .make = &parity::ops::make_op_subject<RecordsStrided>});
PARITY_REGISTER_OP_SUBJECT(contiguous_forward_b, "lora_backward",
                           test_subject("contiguous-forward", &parity::ops::make_op_subject<BackwardTwin>));

// Subjects of both ops (the family runs a subject's forward where lora_forward has one of its name).
PARITY_REGISTER_OP_SUBJECT(writes_W_forward_f, "lora_forward",
                           test_subject("writes-W-forward", &parity::ops::make_op_subject<WritesW<ForwardTwin, 0>>));
PARITY_REGISTER_OP_SUBJECT(writes_W_forward_b, "lora_backward",
                           test_subject("writes-W-forward", &parity::ops::make_op_subject<BackwardTwin>));
PARITY_REGISTER_OP_SUBJECT(writes_W_backward_f, "lora_forward",
                           test_subject("writes-W-backward", &parity::ops::make_op_subject<ForwardTwin>));
PARITY_REGISTER_OP_SUBJECT(writes_W_backward_b, "lora_backward",
                           test_subject("writes-W-backward", &parity::ops::make_op_subject<WritesW<BackwardTwin, 0>>));
PARITY_REGISTER_OP_SUBJECT(writes_W_padding_f, "lora_forward",
                           test_subject("writes-W-padding",
                                        &parity::ops::make_op_subject<WritesW<ForwardTwin, kWPadding>>));
PARITY_REGISTER_OP_SUBJECT(writes_W_padding_b, "lora_backward",
                           test_subject("writes-W-padding", &parity::ops::make_op_subject<BackwardTwin>));

// A LoRA case of these extents with s = float(alpha) / float(r), seed 7, nothing patched.
parity::Case lora_case(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r, double alpha) {
  parity::Case c;
  c.family = "lora";
  c.seed = 7;
  c.dims = {{"T", T}, {"N", N}, {"K", K}, {"r", r}};
  c.params = {{"scale", static_cast<double>(static_cast<float>(alpha) / static_cast<float>(r))},
              {"dtype.act", parity::ops::dtype_code(DType::bf16)},
              {"dtype.adapter", parity::ops::dtype_code(DType::f32)}};
  return c;
}

// T = N = K = r = 1 with these dy, x and A (each as a cast to the operand's dtype rounds it).
parity::Case single_element_case(float dy, float x, float A, double alpha = 2.0) {
  parity::Case c = lora_case(1, 1, 1, 1, alpha);
  c.patches = {{"dy", 0, parity::bf16_from_float_rne(dy), DType::bf16},
               {"x", 0, parity::bf16_from_float_rne(x), DType::bf16},
               {"A", 0, parity::float_bits(A), DType::f32}};
  return c;
}

// The case: s = 2, dy = bf16 max, x = 1, A = 1e-5: the exact dB = s dy x A = 6.8e33 is
// finite, s dy = 6.8e38 is not a float32.
parity::Case overflow_case() { return single_element_case(std::bit_cast<float>(0x7f7f0000u), 1.0f, 1e-5f); }

parity::Verdict zero_adapter_gradients(const char* subject, const parity::Case& c) {
  return parity::properties::lora::lora_family().check(subject, "zero_adapter_gradients", c);
}

// The family's `property` fails on `subject` and `c`, its detail holding `text`.
void expect_fails_saying(const char* subject, const char* property, const parity::Case& c, const std::string& text) {
  const parity::Verdict v = parity::properties::lora::lora_family().check(subject, property, c);
  EXPECT_TRUE(v.fails()) << subject << ": " << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, text)) << subject << ": " << v.detail;
}

TEST(LoraAdapterProperties, ZeroAdapterGradientsAcceptsAnInfWhereTheScaledGradientOverflows) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", overflow_case());
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "s·dy reaches")) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "overflows float32 in some permitted order")) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
}

// T = N = K = r = 1, s = 2, dy = 1, x = 1 and A = 3e38: h = 3e38 is a float32, s h and the exact
// dB = 6e38 are not; no sum of more than one term is on the path.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesDBWhereTheExactDBIsBeyondFloat32) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", single_element_case(1.0f, 1.0f, 3e38f));
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "first dB[0, 0]: dB may reach 6")) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "and overflow float32 in some permitted order")) << v.detail;
  EXPECT_FALSE(parity::holds_text(v.detail, "sum on its path")) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
}

// dy = 7.5e37, x = 1, A = 3, s = 2: s dy = 1.5e38 is a float32, the exact dB = 4.5e38 is not.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesDBNotAScaledOperandThatStaysFinite) {
  const parity::Verdict v = zero_adapter_gradients("scale-first", single_element_case(7.5e37f, 1.0f, 3.0f));
  EXPECT_FALSE(v.fails()) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "first dB[0, 0]: dB may reach 4.5")) << v.detail;
  EXPECT_FALSE(parity::holds_text(v.detail, "s·dy")) << v.detail;
}

// dy = 2^127, s = 2 - 2^-23: s dy = FLT_MAX exactly, which Bounded marks as may overflow while
// neither it nor any intermediate reaches past FLT_MAX: the cause is not named.
TEST(LoraAdapterProperties, ZeroAdapterGradientsNamesNoIntermediateThatCannotOverflow) {
  const parity::Case c = single_element_case(0x1p127f, 1.0f, 1e-5f, static_cast<double>(std::nextafter(2.0f, 0.0f)));
  const parity::Verdict v = zero_adapter_gradients("scale-first", c);
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_EQ(v.metrics.at("grad_b_may_overflow"), 1.0) << v.detail;
  EXPECT_TRUE(parity::holds_text(v.detail, "first dB[0, 0]: an intermediate on its path may overflow float32"))
      << v.detail;
  EXPECT_FALSE(parity::holds_text(v.detail, "reach")) << v.detail;
}

// A small case where no order may overflow.
parity::Case plain_case() { return lora_case(3, 4, 5, 2, 4.0); }

TEST(LoraAdapterProperties, ZeroAdapterGradientsFailsANaNDBWhereNoOrderMayOverflow) {
  const parity::Verdict ok = zero_adapter_gradients("scale-first", plain_case());
  ASSERT_TRUE(ok.holds()) << ok.detail;
  EXPECT_EQ(ok.metrics.at("grad_b_may_overflow"), 0.0) << ok.detail;
  expect_fails_saying("twin-nan-dB", "zero_adapter_gradients", plain_case(),
                      "dB[0, 0] = nan where no permitted order may overflow");
}

// An output of another shape or dtype is failed before any element is read.
TEST(LoraAdapterProperties, ZeroAdapterGradientsFailsAnOutputOfTheWrongShapeOrDtype) {
  expect_fails_saying("twin-oversized-dB", "zero_adapter_gradients", plain_case(),
                      "invalid output: dB is [5, 2] where [4, 2] is expected");
  expect_fails_saying("twin-bf16-dA", "zero_adapter_gradients", plain_case(), "invalid output: dA is bf16, not f32");
}

parity::Verdict base_frozen(const char* subject) {
  return parity::properties::lora::lora_family().check(subject, "base_frozen", plain_case());
}

TEST(LoraAdapterProperties, BaseFrozenFailsAnOutputBeyondDxDaDbNamingIt) {
  const parity::Verdict host = base_frozen("parity-host");
  EXPECT_TRUE(host.holds()) << host.detail;
  EXPECT_TRUE(parity::holds_text(host.detail, "untouched by the forward and the backward")) << host.detail;
  expect_fails_saying("twin-dW", "base_frozen", plain_case(), "a gradient dW for the frozen weight W");
  expect_fails_saying("twin-grad-W", "base_frozen", plain_case(), "an output grad_W beyond dx, dA and dB");
  EXPECT_TRUE(base_frozen("probe-base-gradient").fails());
}

// plain_case() with W [4, 5] row-major, each row padded by 2 elements.
parity::Case padded_case() {
  parity::Case c = plain_case();
  c.layouts["W"] = parity::Layout{.ld_pad = 2};
  return c;
}

TEST(LoraAdapterProperties, BaseFrozenFailsASubjectWritingWNamingTheCall) {
  const parity::Verdict host =
      parity::properties::lora::lora_family().check("parity-host", "base_frozen", padded_case());
  EXPECT_TRUE(host.holds()) << host.detail;
  expect_fails_saying("writes-W-forward", "base_frozen", plain_case(), "W's storage changed during the forward");
  expect_fails_saying("writes-W-backward", "base_frozen", plain_case(), "W's storage changed during the backward");
  const parity::ops::OpProblem padded = parity::ops::materialise(
      parity::ops::find_op_family("lora_backward").def().decl, parity::properties::lora::backward_case(padded_case()));
  const Tensor& W = padded.call.input("W");
  for (std::int64_t i = 0; i < W.numel(); ++i) ASSERT_NE(W.storage_index(i), kWPadding) << "not padding";
  expect_fails_saying("writes-W-padding", "base_frozen", padded_case(), "W's storage changed during the forward");
}

// A run of base_frozen on records-extents under these caps: 64 cases of seed 11.
parity::gen::RunResult run_capped(const parity::gen::ExtentMaxima& caps) {
  Drawn::max_T = Drawn::max_elements = 0;
  return parity::properties::lora::lora_family().run(
      "records-extents", "base_frozen", {.cases = 64, .seed = 11, .write_reproducer = false, .max_extents = caps});
}

TEST(LoraFamily, RunHonoursTheExtentAndReachCaps) {
  const std::int64_t max_elements = parity::ops::find_op_family("lora_backward").def().decl.max_elements;
  const parity::gen::RunResult plain = run_capped({});
  ASSERT_TRUE(plain.passed) << plain.message;
  ASSERT_GT(Drawn::max_T, 3);
  ASSERT_GT(Drawn::max_elements, max_elements) << "the seed draws no reach case past max_elements";
  const parity::gen::RunResult t3 = run_capped({{"T", 3}});
  ASSERT_TRUE(t3.passed) << t3.message;
  EXPECT_LE(Drawn::max_T, 3);
  const parity::gen::RunResult reach = run_capped({{"reach_elements", max_elements}});
  ASSERT_TRUE(reach.passed) << reach.message;
  EXPECT_LE(Drawn::max_elements, max_elements);
}

// base_frozen gives the forward the backward's operands: its layouts bound the family's cases.
TEST(LoraFamily, RunDrawsContiguousCasesForAForwardWithoutStridedLayouts) {
  const parity::gen::RunConfig config{
      .cases = 48, .seed = 5, .write_reproducer = false, .max_extents = {{"T", 8}, {"N", 8}, {"K", 8}, {"r", 4}}};
  Strided::given = false;
  const parity::gen::RunResult run =
      parity::properties::lora::lora_family().run("contiguous-forward", "base_frozen", config);
  ASSERT_TRUE(run.passed) << run.message;
  EXPECT_FALSE(Strided::given);
}

TEST(LoraFamily, ItsSubjectsAreLoraBackwardsButTheOpProbesThenItsOwnProbes) {
  std::vector<std::string> names;
  for (const auto& s : parity::properties::lora::lora_family().subjects()) names.push_back(s.name);
  for (const char* op_probe : {"probe-scale-dropped", "probe-bf16-accumulation", "probe-truncating-bf16"})
    EXPECT_EQ(std::count(names.begin(), names.end(), op_probe), 0) << op_probe;
  for (const char* subject : {"parity-host", "parity-cuda", "torch-cpu", "torch-cuda", "scale-first"})
    EXPECT_EQ(std::count(names.begin(), names.end(), subject), 1) << subject;
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[names.size() - 2], "probe-base-gradient");
  EXPECT_EQ(names.back(), "probe-skips-adapter-backward-at-zero-B");
  EXPECT_THROW(parity::properties::lora::lora_family().check("probe-scale-dropped", "base_frozen", plain_case()),
               parity::InputError);
}

TEST(LoraFamily, RefusesACaseOfItsFormerFormatNamingCaseParams) {
  parity::Case old;
  old.family = "lora";
  old.dims = {{"T", 1}, {"N", 1}, {"K", 1}, {"r", 1}};
  for (const auto& params : {std::map<std::string, double>{}, {{"alpha", 4.0}}}) {
    old.params = params;
    const std::string what =
        parity::input_error_message([&] { parity::properties::lora::lora_family().rules().check_contract(old); },
                                    "a former-format case passed the contract");
    EXPECT_TRUE(what.starts_with("case.params: a lora case of the family's former format")) << what;
    EXPECT_TRUE(parity::holds_text(what, "parity check lora_backward")) << what;
  }
  EXPECT_NO_THROW(parity::properties::lora::lora_family().rules().check_contract(plain_case()));
}

}  // namespace
