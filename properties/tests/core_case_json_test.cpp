// Case, Verdict and reproducer JSON: exact round trips over generated cases, and errors that
// name the field for malformed, truncated and future-schema files.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include <parity/core/build_info.hpp>
#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity {
namespace {

namespace fs = std::filesystem;

// A Case of every field: extents, layouts, patches of each dtype, a parameter.
rc::Gen<Case> any_case() {
  return rc::gen::exec([] {
    Case c;
    c.family = *rc::gen::element<std::string>("lora", "lora_backward", "transition");
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    for (const char* d : {"T", "N", "K", "r"}) c.dims[d] = *rc::gen::inRange<std::int64_t>(1, 1 << 20);
    c.probe_row = *rc::gen::inRange<std::int64_t>(0, c.dims.at("T"));
    for (const char* operand : {"x", "W", "dy"})
      if (*rc::gen::arbitrary<bool>())
        c.layouts[operand] = Layout{*rc::gen::arbitrary<bool>(), *rc::gen::inRange<std::int64_t>(0, 64),
                                    *rc::gen::inRange<std::int64_t>(0, 64)};
    c.params["scale"] = static_cast<double>(*rc::gen::arbitrary<std::int32_t>()) / 1024;
    c.params["dtype.act"] = 16;
    const int patches = *rc::gen::inRange(0, 4);
    for (int i = 0; i < patches; ++i) {
      const DType dtype = *rc::gen::element(DType::f32, DType::bf16);
      const std::uint64_t bits = *rc::gen::arbitrary<std::uint32_t>();
      c.patches.push_back({*rc::gen::element<std::string>("x", "A", "dy"), *rc::gen::inRange<std::int64_t>(0, 1 << 20),
                           dtype == DType::bf16 ? bits & 0xffff : bits, dtype});
    }
    return c;
  });
}

RC_GTEST_PROP(CaseJson, RoundTripsExactly, ()) {
  const Case c = *any_case();
  RC_ASSERT(case_from_json(nlohmann::json::parse(case_to_json(c).dump())) == c);
}

TEST(Reproducer, RoundTripsThroughAFile) {
  Case c;
  c.family = "lora";
  c.seed = 0xFFFFFFFFFFFFFFFFull;
  c.dims = {{"T", 3}, {"N", 5}, {"K", 7}, {"r", 2}};
  c.layouts["x"] = Layout{true, 2, 1};
  c.params["alpha"] = 0.1;
  c.patches.push_back({"x", 4, 0x7FC00000u});
  Verdict v = Verdict::fail("forward_accuracy", "y[0, 1] outside");
  v.metrics["bound_utilisation"] = std::numeric_limits<double>::infinity();
  const Reproducer r{"probe-scale-dropped", "forward_accuracy", c, v};
  const fs::path dir = fs::temp_directory_path() / "parity_repro_test";
  fs::remove_all(dir);
  const fs::path file = write_reproducer(r, dir);
  EXPECT_EQ(read_reproducer(file), r);
  fs::remove_all(dir);
}

// Reproducers naming parity's own kernels by their former names replay on them under the new ones;
// every other name is kept as written.
TEST(Reproducer, FormerNamesOfParitysKernelsReadAsTheirNames) {
  Case c;
  c.family = "lora";
  c.dims = {{"T", 1}};
  for (const auto& [written, read] :
       {std::pair{"rlkernels-host", "parity-host"},
        {"rlkernels-cuda", "parity-cuda"},
        {"my-rlkernels-host", "my-rlkernels-host"},
        {"parity-host", "parity-host"},
        {"runtime-host+linear=rlkernels-host", "runtime-host+linear=parity-host"},
        {"bound-all+transition_step=rlkernels-cuda", "bound-all+transition_step=parity-cuda"},
        {"runtime-host+linear=my-op", "runtime-host+linear=my-op"}}) {
    nlohmann::json j = reproducer_to_json({written, "repeatable", c, Verdict::fail("repeatable", "differs")});
    EXPECT_EQ(reproducer_from_json(j).subject, read) << written;
  }
}

// The one-line summary decodes each patch: operand[index] = value (bits, special value's name).
TEST(CaseSummary, DecodesPatches) {
  Case c;
  c.family = "lora";
  c.dims = {{"T", 1}};
  c.patches = {{"dy", 4, 0x7F7F0000u}, {"x", 0, 0xFF800000u}, {"A", 2, 0x3FC00000u}};
  EXPECT_EQ(c.summary(),
            "lora T=1 seed=0 probe_row=0 patches: dy[4] = 3.38953139e+38 (bits 0x7f7f0000, bf16 max), "
            "x[0] = -inf (bits 0xff800000), A[2] = 1.5 (bits 0x3fc00000)");
  c.patches.resize(6, {"B", 1, 0x00000001u});
  EXPECT_NE(c.summary().find("B[1] = 1.40129846e-45 (bits 0x00000001, float32 denorm min) and 2 more"),
            std::string::npos)
      << c.summary();
}

// An op's patch holds its operand's own bits: the summary decodes them in that dtype, and JSON
// keeps the dtype (absent for float32, so a float32 patch reads as before).
TEST(CaseSummary, DecodesPatchesOfOtherDtypes) {
  Case c;
  c.family = "sdpa";
  c.dims = {{"S", 1}};
  c.patches = {{"q", 0, 0x7F80, DType::bf16}, {"k", 1, 0x7F7F, DType::bf16}, {"v", 2, 0x7BFF, DType::f16}};
  EXPECT_EQ(c.summary(),
            "sdpa S=1 seed=0 probe_row=0 patches: q[0] = inf (bf16 bits 0x7f80), "
            "k[1] = 3.38953139e+38 (bf16 bits 0x7f7f, bf16 max), v[2] = 65504 (f16 bits 0x7bff, f16 max)");
  const nlohmann::json j = case_to_json(c);
  EXPECT_EQ(j.at("patches")[0].at("dtype"), "bf16");
  EXPECT_EQ(case_from_json(j, "case"), c);
  c.patches = {{"x", 0, 0x3F800000u}};
  EXPECT_FALSE(case_to_json(c).at("patches")[0].contains("dtype"));
}

TEST(CaseJson, RefusesAPatchWiderThanItsDtypeOrOfAnUnknownDtype) {
  Case c;
  c.family = "sdpa";
  nlohmann::json j = case_to_json(c);
  j["patches"] = {{{"operand", "q"}, {"index", 0}, {"bits", "0x10000"}, {"dtype", "bf16"}}};
  EXPECT_TRUE(throws_input_error([&] { case_from_json(j, "case"); }, "case.patches[0].bits"));
  j["patches"][0]["bits"] = "0x1";
  j["patches"][0]["dtype"] = "f8";
  EXPECT_TRUE(throws_input_error([&] { case_from_json(j, "case"); }, "case.patches[0].dtype"));
}

// Every reproducer says where it came from: parity's version and commit, the LibTorch of the
// build (the version its headers report, with the wheel's local tag, e.g. "2.11.0+cu130"), the
// CUDA runtime and the device ("cpu" until the CUDA backend notes one).
TEST(Reproducer, RecordsItsEnvironment) {
  Case c;
  c.family = "lora";
  c.dims = {{"T", 1}};
  const Reproducer r{"parity-host", "repeatable", c, Verdict::fail("repeatable", "differs")};
  const fs::path dir = fs::temp_directory_path() / "parity_repro_env_test";
  fs::remove_all(dir);
  auto environment_of = [&] {
    std::ifstream in(write_reproducer(r, dir));
    return nlohmann::json::parse(in).at("environment");
  };
  const nlohmann::json env = environment_of();
  EXPECT_EQ(env.at("parity"), build_info().version);
  EXPECT_FALSE(env.at("commit").get<std::string>().empty());
  const std::string libtorch = env.at("libtorch");
  EXPECT_EQ(libtorch.rfind(subjects::torch_impl::torch_version_text(), 0), 0u)
      << libtorch << " vs the headers' " << subjects::torch_impl::torch_version_text();
  EXPECT_FALSE(env.at("libtorch_cuda").get<std::string>().empty());
  EXPECT_FALSE(env.at("cuda_runtime").get<std::string>().empty());
  EXPECT_EQ(env.at("device"), "cpu");
  note_cuda_device("a noted device", "13.0");
  const nlohmann::json noted = environment_of();
  EXPECT_EQ(noted.at("device"), "a noted device");
  EXPECT_EQ(noted.at("cuda_runtime"), "13.0");
  fs::remove_all(dir);
}

std::string error_for(const std::string& text) {
  const fs::path file = fs::temp_directory_path() / "parity_bad_repro.json";
  std::ofstream(file) << text;
  return input_error_message([&] { read_reproducer(file); }, "no error");
}

TEST(Reproducer, BadFilesAreRefusedNamingTheField) {
  const std::string good =
      R"({"schema":"parity.repro/1","subject":"s","property":"p","case":{"family":"lora","seed":1,)"
      R"("dims":{"T":1}},"observed":{"property":"p","outcome":"fails"}})";
  EXPECT_EQ(error_for(good), "no error");
  EXPECT_NE(error_for(good.substr(0, 40)).find("not valid JSON"), std::string::npos);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return error_for(s);
  };
  EXPECT_NE(with("parity.repro/1", "parity.repro/2").find("schema: 'parity.repro/2' is not one this parity reads"),
            std::string::npos);
  EXPECT_NE(with(R"("T":1)", R"("T":"one")").find("case.dims.T: expected an integer"), std::string::npos);
  EXPECT_NE(with(R"("seed":1)", R"("seed":-1)").find("case.seed"), std::string::npos);
  EXPECT_NE(with(R"("outcome":"fails")", R"("outcome":"maybe")").find("observed.outcome"), std::string::npos);
  EXPECT_NE(with(R"("subject":"s",)", "").find("subject: missing field"), std::string::npos);
  EXPECT_NE(error_for("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_for("[]").find("expected an object"), std::string::npos);
  EXPECT_THROW(read_reproducer("/nonexistent/parity.json"), InputError);
}

}  // namespace
}  // namespace parity
