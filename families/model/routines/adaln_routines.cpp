#include <parity/families/model/routines/adaln_routines.hpp>

#include <cmath>

#include <parity/core/error.hpp>
#include <parity/families/model/model_weights.hpp>
#include <parity/families/model/routines/attention.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/families/model/routines/routine_shapes.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>
#include <parity/ops/swiglu/swiglu_kernel.cuh>

namespace parity::model {
namespace {

// SiLU as the swiglu kernel computes it, bit for bit (swiglu::silu): the only thing this file takes
// from swiglu_kernel.cuh, which also brings swiglu's host twins and factories. Accepted rather than
// a header of its own for one function; the model depends on the ops already.
Tensor silu_f32(const Tensor& x) {
  const Tensor c = x.contiguous();
  Tensor out = Tensor::zeros(DType::f32, c.shape());
  for (std::int64_t i = 0; i < c.numel(); ++i) out.storage<float>()[i] = ops::swiglu::silu(c.storage<float>()[i]);
  return out;
}

// (shift, scale) halves of a [B, 2D] tensor, each [B, D].
std::pair<Tensor, Tensor> halves(const Tensor& ss) {
  const std::int64_t B = ss.dim(0), D = ss.dim(1) / 2;
  Tensor shift = Tensor::zeros(DType::f32, {B, D}), scale = Tensor::zeros(DType::f32, {B, D});
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t d = 0; d < D; ++d) {
      shift.storage<float>()[b * D + d] = ss.storage<float>()[b * 2 * D + d];
      scale.storage<float>()[b * D + d] = ss.storage<float>()[b * 2 * D + D + d];
    }
  return {shift, scale};
}

class TimestepRoutine final : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    const Tensor t = o.at(0).contiguous();
    const std::int64_t B = t.numel(), F = o.at(1).dim(1), half = F / 2;
    Tensor feats = Tensor::zeros(DType::f32, {B, F});
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t i = 0; i < half; ++i) {
        const float arg = (t.storage<float>()[b] * 1000.0f) * timestep_frequency(i, half);
        double s, c;
        sincos_deterministic(arg, &s, &c);
        feats.storage<float>()[b * F + i] = static_cast<float>(c);
        feats.storage<float>()[b * F + half + i] = static_cast<float>(s);
      }
    const Tensor h = silu_f32(p_.linear_forward(feats, o.at(1), &o.at(2)));
    return {p_.linear_forward(h, o.at(3), &o.at(4))};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>&, const std::vector<Tensor>&) const override {
    throw InputError("timestep_embedder_mlp has no backward (the timestep is not differentiated)");
  }
};

class ModulationRoutine final : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {p_.linear_forward(silu_f32(o.at(0)), o.at(1), &o.at(2))};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>&, const std::vector<Tensor>&) const override {
    throw InputError("adaln_modulation has no backward (temb is not differentiated)");
  }
};

class NormOutRoutine final : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    const Tensor& x = o.at(0);
    const std::int64_t B = x.dim(0), T = x.dim(1), D = x.dim(2);
    const auto [shift, scale] = halves(p_.linear_forward(silu_f32(o.at(1)), o.at(2), &o.at(3)));
    Tensor y = reshaped(p_.rms_norm_forward(reshaped(x, {B * T, D}), nullptr, kRmsEps), {B, T, D});
    float* v = y.storage<float>();
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t t = 0; t < T; ++t)
        for (std::int64_t d = 0; d < D; ++d) {
          float& e = v[(b * T + t) * D + d];
          e = e * (1.0f + scale.storage<float>()[b * D + d]) + shift.storage<float>()[b * D + d];
        }
    return {y};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    const Tensor& x = o.at(0);
    const std::int64_t B = x.dim(0), T = x.dim(1), D = x.dim(2);
    const auto scale = halves(p_.linear_forward(silu_f32(o.at(1)), o.at(2), &o.at(3))).second;
    Tensor dn = g.at(0).contiguous();
    float* v = dn.storage<float>();
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t t = 0; t < T; ++t)
        for (std::int64_t d = 0; d < D; ++d) v[(b * T + t) * D + d] *= 1.0f + scale.storage<float>()[b * D + d];
    const Tensor dx = p_.rms_norm_backward_input(reshaped(x, {B * T, D}), nullptr, kRmsEps, reshaped(dn, {B * T, D}));
    return {reshaped(dx, {B, T, D}), Tensor(), Tensor(), Tensor()};
  }
};

Tensor example(std::vector<std::int64_t> shape, std::uint32_t stream) {
  return example_operand(DType::f32, std::move(shape), stream);
}

}  // namespace

runtime::RoutineInfo timestep_embedder_routine(const PrimitivesOf& of) {
  return f32_routine<TimestepRoutine>(of, "timestep_embedder_mlp", "sinusoid-linear-silu-linear",
                                      "t [B], W1 [D, F], W2 [D, D]", "time_embedder", {"t", "W1", "b1", "W2", "b2"},
                                      runtime::OptIn::all, false, timestep_shapes, [] {
                                        return std::vector<Tensor>{example({2}, 1), example({4, 6}, 2), example({4}, 3),
                                                                   example({4, 4}, 4), example({4}, 5)};
                                      });
}

runtime::RoutineInfo adaln_modulation_routine(const PrimitivesOf& of) {
  return f32_routine<ModulationRoutine>(
      of, "adaln_modulation", "silu-linear", "temb [B, D], W [kD, D]", "modulation", {"temb", "W", "b"},
      runtime::OptIn::all, false, modulation_shapes, [] {
        return std::vector<Tensor>{example({2, 4}, 1), example({8, 4}, 2), example({8}, 3)};
      });
}

runtime::RoutineInfo adaln_norm_out_routine(const PrimitivesOf& of) {
  return f32_routine<NormOutRoutine>(
      of, "adaln_norm_out", "rmsnorm-adaln", "x [B, T, D], temb [B, D], W [2D, D]", "norm_out", {"x", "temb", "W", "b"},
      runtime::OptIn::all, true, norm_out_shapes, [] {
        return std::vector<Tensor>{example({2, 3, 4}, 1), example({2, 4}, 2), example({8, 4}, 3), example({8}, 4)};
      });
}

}  // namespace parity::model
