// LibTorch's references of transition_step and transition_score: Flow-GRPO's sde_step_with_logprob
// written in ATen operators exactly as the public Python code writes it (torch-cpu, torch-cuda),
// and a second, independently written formulation of the same step, as a second library would
// write it (torch-second-cpu, torch-second-cuda): each Python operator becomes the corresponding
// ATen operator, in the same order and grouping, with per-row sigma and sigma_prev as [B, 1]
// float32 tensors broadcast against [B, n] and the Python floats as Scalars. The only source of
// the op that includes LibTorch.
#include <parity/ops/transition_step/transition_step_kernel.cuh>

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/add.h>
#include <ATen/ops/div.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/flatten.h>
#include <ATen/ops/log.h>
#include <ATen/ops/mean.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/rsub.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/square.h>
#include <ATen/ops/sub.h>
#include <ATen/ops/where.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/subjects/torch/convert.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity::ops::transition_step {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

// The operands as Flow-GRPO holds them: x (sample) and v (model_output) after `.float()`,
// eps (variance_noise), and the per-row sigma and sigma_prev as [B, 1] float32 tensors.
struct Operands {
  at::Tensor x, v, eps;          // [B, n] float32 (eps undefined when scoring)
  at::Tensor sigma, sigma_prev;  // [B, 1] float32
};

// The quantities both formulations share: the per-row std_dev_t and dt, and the mean.
struct Step {
  at::Tensor std_dev_t;  // [B, 1]
  at::Tensor dt;         // [B, 1] (sde only)
  at::Tensor mean;       // [B, n]: prev_sample_mean
};

// prev_sample_mean, operator for operator as sde_step_with_logprob writes it. Python
// evaluates `a * b * c` as `(a * b) * c`; `1 - t` is t.__rsub__(1) (at::rsub), `2 * t` and
// `1 + t` are t.__rmul__ / t.__radd__ (at::mul(t, 2), at::add(t, 1)); `t ** 2` is
// at::pow(t, 2); Python floats are Scalars, which ATen casts to float32 for a float32 tensor.
Step flow_grpo_step(const Operands& o, const RowStep& in) {
  Step s;
  if (!in.settings.cps) {
    // dt = sigma_prev - sigma
    s.dt = at::sub(o.sigma_prev, o.sigma);
    // std_dev_t = torch.sqrt(sigma / (1 - torch.where(sigma == 1, sigma_max, sigma))) * noise_level
    const at::Tensor s1 =
        at::where(at::eq(o.sigma, 1), at::Scalar(static_cast<double>(in.settings.sigma_max)), o.sigma);
    s.std_dev_t = at::mul(at::sqrt(at::div(o.sigma, at::rsub(s1, 1))), at::Scalar(in.settings.noise_level));
    // prev_sample_mean = sample*(1+std_dev_t**2/(2*sigma)*dt)
    //                    + model_output*(1+std_dev_t**2*(1-sigma)/(2*sigma))*dt
    const at::Tensor cx = at::add(at::mul(at::div(at::pow(s.std_dev_t, 2), at::mul(o.sigma, 2)), s.dt), 1);
    const at::Tensor cv =
        at::add(at::div(at::mul(at::pow(s.std_dev_t, 2), at::rsub(o.sigma, 1)), at::mul(o.sigma, 2)), 1);
    s.mean = at::add(at::mul(o.x, cx), at::mul(at::mul(o.v, cv), s.dt));
  } else {
    // std_dev_t = sigma_prev * math.sin(noise_level * math.pi / 2): the sine in double, as
    // Python's math.sin, then a float32 multiply by the Scalar.
    const double sin_a = std::sin(in.settings.noise_level * std::numbers::pi / 2);
    s.std_dev_t = at::mul(o.sigma_prev, at::Scalar(sin_a));
    // pred_original_sample = sample - sigma * model_output
    const at::Tensor x0 = at::sub(o.x, at::mul(o.sigma, o.v));
    // noise_estimate = sample + model_output * (1 - sigma)
    const at::Tensor x1 = at::add(o.x, at::mul(o.v, at::rsub(o.sigma, 1)));
    // prev_sample_mean = pred_original_sample * (1 - sigma_prev)
    //                    + noise_estimate * torch.sqrt(sigma_prev**2 - std_dev_t**2)
    s.mean = at::add(at::mul(x0, at::rsub(o.sigma_prev, 1)),
                     at::mul(x1, at::sqrt(at::sub(at::pow(o.sigma_prev, 2), at::pow(s.std_dev_t, 2)))));
  }
  return s;
}

// A float32 operand on `device`, contiguous after the upcast, as Flow-GRPO's latents, model
// output and noise are. This matters for the log-prob only: ATen's elementwise operators give
// their output the memory order of their first decisive operand, so a column-major x would make
// the mean, prev and the log-prob terms column-major, and log_prob.mean(dim=1) would then add
// each row in another order (it does: a different last bit). With contiguous operands the bits
// do not depend on the layouts the subject is given, and score(prev) reduces in the same order
// as sample() whatever prev's layout.
at::Tensor float_operand(const Tensor& t, at::Device device) {
  return to_aten(t).to(device).to(at::kFloat).contiguous();
}

// A per-row vector as a [B, 1] float32 tensor on `device`.
at::Tensor column(const std::vector<float>& values, at::Device device) {
  at::Tensor c = at::empty({static_cast<std::int64_t>(values.size()), 1}, at::TensorOptions().dtype(at::kFloat));
  std::memcpy(c.data_ptr(), values.data(), values.size() * sizeof(float));
  return c.to(device);
}

// The operands of sample() (with_eps) and score() on `device`.
Operands operands(const RowStep& in, bool with_eps, at::Device device) {
  Operands o;
  // model_output = model_output.float(); sample = sample.float()
  o.x = float_operand(in.x, device);
  o.v = float_operand(in.v, device);
  if (with_eps) o.eps = float_operand(in.eps, device);
  o.sigma = column(in.sigma, device);
  o.sigma_prev = column(in.sigma_prev, device);
  return o;
}

// A formulation of the step in ATen operators on `device`: its sampling and scoring.
class TorchFormulation {
 public:
  explicit TorchFormulation(bool on_cuda) : device_(on_cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU)) {}
  virtual ~TorchFormulation() = default;

  OpOutputs sample(const RowStep& in) const {
    at::NoGradGuard no_grad;
    const Operands o = operands(in, /*with_eps=*/true, device_);
    const Step s = flow_grpo_step(o, in);
    const at::Tensor prev = prev_sample(s, o.eps, in);
    return {{"prev", from_aten(prev)},
            {"mean", from_aten(s.mean)},
            {"std", from_aten(s.std_dev_t.reshape({o.x.size(0)}))},
            {"logp", from_aten(log_prob(s, prev, in))}};
  }

  Tensor score(const RowStep& in, const Tensor& prev) const {
    at::NoGradGuard no_grad;
    const Operands o = operands(in, /*with_eps=*/false, device_);
    const Step s = flow_grpo_step(o, in);
    // prev_sample = prev_sample.float() (already float32: the op's declaration)
    return from_aten(log_prob(s, float_operand(prev, device_), in));
  }

 protected:
  // prev_sample from the mean and variance_noise.
  virtual at::Tensor prev_sample(const Step& s, const at::Tensor& eps, const RowStep& in) const = 0;
  // log_prob ([B]) of prev_sample.
  virtual at::Tensor log_prob(const Step& s, const at::Tensor& prev, const RowStep& in) const = 0;

 private:
  at::Device device_;
};

// The Python formula itself. Everything after the mean, operator for operator:
//   sde: prev_sample = prev_sample_mean + std_dev_t * torch.sqrt(-1*dt) * variance_noise
//        log_prob = -((prev_sample - prev_sample_mean) ** 2)
//                     / (2 * ((std_dev_t * torch.sqrt(-1*dt))**2))
//                   - torch.log(std_dev_t * torch.sqrt(-1*dt))
//                   - torch.log(torch.sqrt(2 * torch.as_tensor(math.pi)))   [normaliser]
//   cps: prev_sample = prev_sample_mean + std_dev_t * variance_noise
//        log_prob = -((prev_sample - prev_sample_mean) ** 2)
//   log_prob = log_prob.mean(dim=tuple(range(1, log_prob.ndim)))
// std_dev_t * torch.sqrt(-1*dt) is written out each time, as Python does (same bits).
class FlowGrpoFormula final : public TorchFormulation {
 public:
  using TorchFormulation::TorchFormulation;

 protected:
  at::Tensor prev_sample(const Step& s, const at::Tensor& eps, const RowStep& in) const override {
    if (in.settings.cps) return at::add(s.mean, at::mul(s.std_dev_t, eps));
    return at::add(s.mean, at::mul(at::mul(s.std_dev_t, at::sqrt(at::mul(s.dt, -1))), eps));
  }

  at::Tensor log_prob(const Step& s, const at::Tensor& prev, const RowStep& in) const override {
    const at::Tensor neg_d2 = at::neg(at::pow(at::sub(prev, s.mean), 2));
    at::Tensor lp;
    if (in.settings.cps) {
      lp = neg_d2;
    } else {
      const at::Tensor noise = at::mul(s.std_dev_t, at::sqrt(at::mul(s.dt, -1)));
      lp = at::div(neg_d2, at::mul(at::pow(noise, 2), 2));
      if (in.settings.normaliser) {
        lp = at::sub(lp, at::log(at::mul(s.std_dev_t, at::sqrt(at::mul(s.dt, -1)))));
        // torch.as_tensor(math.pi): a float32 0-dim CPU tensor (not a wrapped number), so
        // 2 * pi, the sqrt and the log are float32 tensor operations.
        const at::Tensor pi = at::scalar_tensor(std::numbers::pi, at::TensorOptions().dtype(at::kFloat));
        lp = at::sub(lp, at::log(at::sqrt(at::mul(pi, 2))));
      }
    }
    const std::int64_t dims[] = {1};  // tuple(range(1, log_prob.ndim)) for [B, n]
    return at::mean(lp, at::IntArrayRef(dims));
  }
};

// The second formulation. It differs from FlowGrpoFormula only after the mean (which is the
// shared flow_grpo_step expression, so mean, prev and std agree bitwise):
//   noise    = std_dev_t * sqrt(-dt), computed once (at::neg instead of -1 *: same bits)
//   prev     = mean + noise * eps
//   log_prob = -((prev - mean).square()) / (2.0 * noise.square()) - log(noise)
//              - 0.5 log(2 pi)                                        [normaliser]
//   cps:       -((prev - mean).square())
//   then .flatten(1).mean(1).
// .square() is pow(t, 2) in ATen, so the only arithmetic difference is the normalising
// constant: 0.5 log(2 pi) in double on the host, then cast to float32 by the subtraction's
// Scalar, instead of float32 log(sqrt(2 * float32(pi))) evaluated by LibTorch's log.
class SecondFormulation final : public TorchFormulation {
 public:
  using TorchFormulation::TorchFormulation;

 protected:
  at::Tensor prev_sample(const Step& s, const at::Tensor& eps, const RowStep& in) const override {
    return at::add(s.mean, at::mul(noise(s, in), eps));
  }

  at::Tensor log_prob(const Step& s, const at::Tensor& prev, const RowStep& in) const override {
    at::Tensor lp = at::neg(at::square(at::sub(prev, s.mean)));
    if (!in.settings.cps) {
      const at::Tensor std = noise(s, in);
      lp = at::div(lp, at::mul(at::square(std), 2.0));
      if (in.settings.normaliser) {
        static const double half_log_2pi = 0.5 * std::log(2.0 * std::numbers::pi);
        lp = at::sub(at::sub(lp, at::log(std)), at::Scalar(half_log_2pi));
      }
    }
    return at::flatten(lp, 1).mean(1);
  }

 private:
  // The std of prev around the mean.
  static at::Tensor noise(const Step& s, const RowStep& in) {
    if (in.settings.cps) return s.std_dev_t;
    return at::mul(s.std_dev_t, at::sqrt(at::neg(s.dt)));
  }
};

// A formulation as a subject of transition_step (kScore false) or transition_score: each row at
// its sigma and sigma_prev_of(sigma, step). Its arithmetic: any order, a 1-ulp log (LibTorch's logf).
template <class Formulation, bool kScore>
class TorchSubject final : public OpSubject {
 public:
  explicit TorchSubject(bool on_cuda) : formulation_(on_cuda) {}
  Arithmetic arithmetic() const override { return {.log_ulps = 1.0}; }
  OpOutputs run(const OpCall& call) override {
    RowStep in{.x = call.input("x"), .v = call.input("v"), .settings = StepSettings::of(call)};
    if (!kScore) in.eps = call.input("eps");
    const Tensor& sigma = call.input("sigma");
    for (std::int64_t b = 0; b < sigma.numel(); ++b) {
      in.sigma.push_back(static_cast<float>(sigma.value_at(b)));
      in.sigma_prev.push_back(sigma_prev_of(sigma.value_at(b), call.param("step")));
    }
    // The operands checked before ATen sees them (InputError naming the operand, not ATen's error).
    RowStep checked = in;
    if (kScore) checked.eps = call.input("prev");
    check_row_step(checked, kScore ? "prev" : "eps");
    if (kScore) return {{"logp", formulation_.score(in, call.input("prev"))}};
    return formulation_.sample(in);
  }

 private:
  Formulation formulation_;
};

template <class Formulation, bool kScore>
std::unique_ptr<OpSubject> make(bool on_cuda) {
  if (const std::string why = torch_unavailable_reason(on_cuda); !why.empty())
    throw InputError(std::string(on_cuda ? "torch-cuda" : "torch-cpu") + " transition subject: " + why);
  return std::make_unique<TorchSubject<Formulation, kScore>>(on_cuda);
}

}  // namespace

std::string torch_unavailable_reason(bool on_cuda) {
  // The same conditions as the LoRA subjects: one LibTorch, one device.
  return on_cuda ? subjects::torch_impl::torch_cuda_unavailable_reason() : "";
}

std::unique_ptr<OpSubject> make_torch_subject(TorchFormula f, Entry e, bool on_cuda) {
  const bool score = e == Entry::score;
  if (f == TorchFormula::second)
    return score ? make<SecondFormulation, true>(on_cuda) : make<SecondFormulation, false>(on_cuda);
  return score ? make<FlowGrpoFormula, true>(on_cuda) : make<FlowGrpoFormula, false>(on_cuda);
}

OpSubjectInfo torch_reference(TorchFormula f, Entry e, bool on_cuda) {
  const std::string device = on_cuda ? "cuda" : "cpu";
  return {.name = std::string(f == TorchFormula::second ? "torch-second-" : "torch-") + device,
          .backend = "torch-" + device,
          .kind = subjects::SubjectKind::reference,
          .description =
              (f == TorchFormula::second ? "a second formulation of the step (normalised residual, flatten-mean), "
                                         : "Flow-GRPO's sde_step_with_logprob in LibTorch ops, ") +
              device,
          .unavailable_reason = [on_cuda] { return torch_unavailable_reason(on_cuda); },
          .make = [f, e, on_cuda] { return make_torch_subject(f, e, on_cuda); }};
}

void register_torch_references(const std::string& op, Entry e) {
  register_op_subject(op, torch_reference(TorchFormula::second, e, false));
  register_op_subject(op, torch_reference(TorchFormula::flow_grpo, e, true));
  register_op_subject(op, torch_reference(TorchFormula::second, e, true));
}

OpOutputs torch_row_step(const RowStep& s) {
  check_row_step(s);  // the operands, checked as the kernel's
  return FlowGrpoFormula(false).sample(s);
}

}  // namespace parity::ops::transition_step
