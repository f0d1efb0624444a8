#include <parity/families/model/routines/transition_routine.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/families/model/routines/routine_shapes.hpp>

namespace parity::model {
namespace {

using runtime::Backend;

std::vector<float> floats(const Tensor& t) {
  std::vector<float> out;
  for (double v : t.values()) out.push_back(static_cast<float>(v));
  return out;
}

class TransitionRoutine : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    ops::OpOutputs out = p_.transition_step(transition_step_inputs(o));
    return {std::move(out.at("prev")), std::move(out.at("logp"))};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>&, const std::vector<Tensor>&) const override {
    throw InputError("transition_step_logprob has no backward");
  }
};

}  // namespace

ops::transition_step::RowStep transition_step_inputs(const std::vector<Tensor>& o) {
  if (o.size() != 5) throw InputError("transition_step_logprob: expects operands x, v, eps, sigma, sigma_prev");
  return {.x = o[0],
          .v = o[1],
          .eps = o[2],
          .sigma = floats(o[3]),
          .sigma_prev = floats(o[4]),
          .settings = {.cps = false, .normaliser = true, .sigma_max = 1.0f, .noise_level = 0.7}};
}

runtime::RoutineInfo transition_routine(const PrimitivesOf& of) {
  const auto make = routine_maker<TransitionRoutine>(of);
  return runtime::RoutineInfo{"transition_step_logprob",
                              "sde_step_logprob",
                              "x, v, eps, sigma, sigma_prev f32 -> prev, logp f32",
                              "x, v, eps [B, n], sigma, sigma_prev [B]",
                              {"transition"},
                              runtime::OptIn::none,
                              false,
                              [](const runtime::BoundaryCall& call, Backend backend) {
                                return refusal(call, backend, std::vector<DType>(5, DType::f32),
                                               {"x", "v", "eps", "sigma", "sigma_prev"}, transition_shapes);
                              },
                              make,
                              repeatable_self_check(
                                  make,
                                  [] {
                                    std::vector<Tensor> o;
                                    for (std::uint32_t t = 0; t < 3; ++t)
                                      o.push_back(example_operand(DType::f32, {2, 6}, 20 + t));
                                    o.push_back(Tensor::zeros(DType::f32, {2}));
                                    o.push_back(Tensor::zeros(DType::f32, {2}));
                                    for (std::int64_t b = 0; b < 2; ++b) {
                                      o[3].set_value(b, 0.8);
                                      o[4].set_value(b, 0.7);
                                    }
                                    return o;
                                  },
                                  false)};
}

}  // namespace parity::model
