// The runtime's decisions on a registry of test routines, without a model: modes, opt-in groups,
// ablations, fallbacks for dtype, shape and a missing backward, the log's severity rule and JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/subjects/runtime/runtime.hpp>

namespace parity::runtime {
namespace {

class IdentityRoutine final : public Routine {
 public:
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override { return {o.at(0)}; }
  std::vector<Tensor> backward(const std::vector<Tensor>&, const std::vector<Tensor>& g) const override { return g; }
};

// A routine for `kind` that takes one float32 operand of rank 2.
RoutineInfo test_routine(const std::string& name, const std::string& kind, OptIn opt_in = OptIn::none,
                         bool backward = true) {
  return RoutineInfo{name,
                     "identity",
                     "x f32",
                     "x [M, N]",
                     {kind},
                     opt_in,
                     backward,
                     [](const BoundaryCall& call, Backend) -> std::string {
                       if (call.operands.at(0).dtype != DType::f32) return "operand x is not f32";
                       if (call.operands.at(0).shape.size() != 2) return "shape: x must be [M, N]";
                       return "";
                     },
                     [](Backend) { return std::make_unique<IdentityRoutine>(); },
                     nullptr};
}

RoutineRegistry registry() {
  RoutineRegistry r;
  r.add(test_routine("proj_routine", "proj"));
  r.add(test_routine("video_routine", "video", OptIn::video_projections));
  r.add(test_routine("attention_routine", "attention"));
  r.add(test_routine("forward_only_routine", "refiner", OptIn::none, false));
  return r;
}

BoundaryCall call(const std::string& boundary, const std::string& kind, DType dtype = DType::f32,
                  std::vector<std::int64_t> shape = {2, 3}, bool node = false) {
  return {boundary, kind, node, {{dtype, std::move(shape)}}, false};
}

TEST(Runtime, ModesDecideAsTheirSemanticsSay) {
  const RoutineRegistry routines = registry();
  for (Mode m : {Mode::strict, Mode::audit, Mode::automatic}) {
    Runtime rt(routines, {m, Backend::host, {}, false, false});
    EXPECT_NE(rt.bind(call("proj", "proj")), nullptr) << mode_name(m);
    EXPECT_EQ(rt.bind(call("video", "video")), nullptr) << "an opt-in routine binds only when asked";
    EXPECT_EQ(rt.bind(call("norm", "norm")), nullptr) << "no routine serves norm";
    EXPECT_EQ(rt.log().entries().at("norm").routine, "");
    EXPECT_EQ(rt.case_id(), "R/R");
  }
  Runtime off(routines, {Mode::off, Backend::host, {}, true, true});
  EXPECT_EQ(off.bind(call("proj", "proj")), nullptr);
  EXPECT_EQ(off.log().entries().at("proj").status, BindingStatus::provider);
  EXPECT_EQ(off.case_id(), "P/P");
}

TEST(Runtime, StrictRaisesOnEveryKindOfFallbackAndAuditRecordsIt) {
  const RoutineRegistry routines = registry();
  struct Case {
    BoundaryCall c;
    std::string reason;
  };
  BoundaryCall grad = call("refiner", "refiner");
  grad.needs_backward = true;
  const Case cases[] = {{call("proj", "proj", DType::bf16), "not f32"},
                        {call("proj", "proj", DType::f32, {2, 3, 4}), "shape"},
                        {grad, "no backward"}};
  for (const auto& k : cases) {
    Runtime strict(routines, {Mode::strict, Backend::host, {}, false, false});
    try {
      strict.bind(k.c);
      ADD_FAILURE() << "strict took a fallback without raising: " << k.reason;
    } catch (const BindingError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("'" + k.c.boundary + "'"), std::string::npos) << what;
      EXPECT_NE(what.find(k.reason), std::string::npos) << what;
    }
    Runtime audit(routines, {Mode::audit, Backend::host, {}, false, false});
    EXPECT_EQ(audit.bind(k.c), nullptr);
    EXPECT_EQ(audit.log().entries().at(k.c.boundary).status, BindingStatus::fallback) << k.reason;
    EXPECT_TRUE(audit.log().any_fallback());
  }
}

TEST(Runtime, AblationsLeaveTheirTargetsToTheProvider) {
  const RoutineRegistry routines = registry();
  Runtime rt(
      routines,
      {Mode::strict, Backend::host, {parse_ablation("node:attention"), parse_ablation("boundary:proj")}, false, false});
  EXPECT_EQ(rt.bind(call("blocks.0.attention", "attention", DType::f32, {2, 3}, true)), nullptr);
  EXPECT_EQ(rt.bind(call("proj", "proj")), nullptr);
  EXPECT_EQ(rt.log().entries().at("proj").routine, "proj_routine");
  EXPECT_EQ(rt.log().entries().at("proj").status, BindingStatus::provider);
  EXPECT_EQ(rt.case_id(), "ablation");
  EXPECT_THROW(parse_ablation("attention"), InputError);
  EXPECT_THROW(parse_ablation("node:"), InputError);
}

TEST(BindingLog, KeepsTheMostSevereStatusOfABoundary) {
  BindingLog log;
  log.record("proj", {"proj_routine", BindingStatus::routine, "bound", 0});
  log.record("proj", {"proj_routine", BindingStatus::fallback, "operand x is not f32", 0});
  log.record("proj", {"proj_routine", BindingStatus::routine, "bound", 0});
  const Binding& b = log.entries().at("proj");
  EXPECT_EQ(b.status, BindingStatus::fallback);
  EXPECT_EQ(b.calls, 3);
  EXPECT_NE(b.reason.find("call 2: fallback"), std::string::npos) << b.reason;
  EXPECT_TRUE(log.any_fallback());
}

// What parity gate's report (schema parity.gate/2) records per boundary.
TEST(BindingLog, JsonNamesEachBoundarysRoutineAndStatus) {
  BindingLog log;
  log.record("proj", {"proj_routine", BindingStatus::routine, "bound on host", 0});
  log.record("norm", {"", BindingStatus::provider, "no routine serves 'norm'", 0});
  const nlohmann::json j = log.to_json();
  EXPECT_EQ(
      j.at("proj"),
      (nlohmann::json{{"routine", "proj_routine"}, {"status", "routine"}, {"reason", "bound on host"}, {"calls", 1}}));
  EXPECT_TRUE(j.at("norm").at("routine").is_null());
  EXPECT_EQ(j.at("norm").at("status"), "provider");
}

TEST(RoutineRegistry, RefusesDuplicatesAndListsNames) {
  RoutineRegistry r = registry();
  EXPECT_THROW(r.add(test_routine("proj_routine", "other")), InputError);
  EXPECT_THROW(r.add(test_routine("another", "proj")), InputError);
  ASSERT_TRUE(throws_input_error([&] { r.find("nope"); }, "proj_routine"));
}

}  // namespace
}  // namespace parity::runtime
