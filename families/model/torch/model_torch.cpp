#include <parity/families/model/torch/model_torch.hpp>

#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/log.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/mean.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/where.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/attention.hpp>
#include <parity/families/model/routines/transition_routine.hpp>
#include <parity/subjects/torch/convert.hpp>

namespace parity::model {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

std::vector<Tensor> to_parity(at::TensorList ts) {
  std::vector<Tensor> out;
  for (const auto& t : ts) out.push_back(t.defined() ? from_aten(t.detach()) : Tensor());
  return out;
}

// A bound routine inside LibTorch's autograd graph: forward and backward run the routine's own code.
// The graph holds the Routine by address: run_model runs the backward before its Runtime (which
// owns the routine) can go, and no graph leaves run_model.
struct RoutineFunction : public torch::autograd::Function<RoutineFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, std::int64_t routine,
                                                at::TensorList operands) {
    ctx->saved_data["routine"] = routine;
    ctx->save_for_backward(operands.vec());
    const auto* r = reinterpret_cast<const runtime::Routine*>(routine);
    torch::autograd::variable_list out;
    for (const Tensor& t : r->forward(to_parity(operands))) out.push_back(to_aten(t));
    return out;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const auto* r = reinterpret_cast<const runtime::Routine*>(ctx->saved_data["routine"].toInt());
    const auto operands = ctx->get_saved_variables();
    torch::autograd::variable_list grads = {at::Tensor()};  // the routine pointer
    for (const Tensor& g : r->backward(to_parity(operands), to_parity(grad_outputs)))
      grads.push_back(g.storage_bytes().empty() ? at::Tensor() : to_aten(g));
    return grads;
  }
};

DType dtype_of(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::kBFloat16:
      return DType::bf16;
    case at::kDouble:
      return DType::f64;
    default:
      return DType::f32;
  }
}

using Provider = std::function<std::vector<at::Tensor>(const std::vector<at::Tensor>&)>;

class Forward {
 public:
  // `dtype` kFloat: the model as trained; kDouble: the float64 reference (no runtime).
  Forward(const ModelConfig& c, const ModelWeights& w, runtime::Runtime* rt, at::ScalarType dtype)
      : c_(c), rt_(rt), dt_(dtype) {
    for (const auto& [name, t] : w.all()) w_.emplace(name, dt_ == at::kDouble ? to_aten(t).to(dt_) : to_aten(t));
  }
  // An input at the run's precision: float32 inputs as they are, float64 runs upcast exactly.
  at::Tensor input(const Tensor& t) const { return dt_ == at::kDouble ? to_aten(t).to(dt_) : to_aten(t); }

  // One boundary or node call: the bound routine, or the provider.
  std::vector<at::Tensor> call(const std::string& boundary, const std::string& kind, bool node,
                               const std::vector<at::Tensor>& operands, const Provider& provider) {
    if (rt_) {
      runtime::BoundaryCall bc{boundary, kind, node, {}, false};
      for (const auto& t : operands) {
        bc.operands.push_back({dtype_of(t), t.sizes().vec()});
        bc.needs_backward = bc.needs_backward || (at::GradMode::is_enabled() && t.requires_grad());
      }
      if (const runtime::Routine* routine = rt_->bind(bc))
        return RoutineFunction::apply(reinterpret_cast<std::int64_t>(routine), at::TensorList(operands));
    }
    return provider(operands);
  }
  at::Tensor call1(const std::string& boundary, const std::string& kind, bool node,
                   const std::vector<at::Tensor>& operands, const Provider& provider) {
    return call(boundary, kind, node, operands, provider).at(0);
  }

  const at::Tensor& w(const std::string& name) const {
    auto it = w_.find(name);
    if (it == w_.end()) throw InputError("model has no parameter '" + name + "'");
    return it->second;
  }

  at::Tensor rms(const at::Tensor& x, const at::Tensor* weight) const {
    at::Tensor y = x * at::rsqrt(at::mean(x * x, {-1}, true) + kRmsEps);
    return weight ? y * *weight : y;
  }

  // A linear boundary: operands {x, W, b}.
  at::Tensor linear(const std::string& boundary, const at::Tensor& x, const std::string& param) {
    return call1(boundary, boundary, false, {x, w(param + ".weight"), w(param + ".bias")}, [this](const auto& o) {
      return std::vector<at::Tensor>{at::linear(o[0].to(dt_), o[1].to(dt_), o[2])};
    });
  }

  at::Tensor rope(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin) const {
    const std::int64_t half = c_.rope_dims / 2;
    if (half == 0) return x;
    const std::int64_t T = x.size(1);
    const at::Tensor cs = cos.view({1, T, 1, half}), sn = sin.view({1, T, 1, half});
    const at::Tensor x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
    const at::Tensor rest = x.narrow(-1, 2 * half, x.size(-1) - 2 * half);
    return at::cat({x1 * cs - x2 * sn, x2 * cs + x1 * sn, rest}, -1);
  }

  // The provider's attention node: operands as AttentionOperands::list().
  std::vector<at::Tensor> attention_provider(const std::vector<at::Tensor>& o) const {
    const at::Tensor& h = o[0];
    const std::int64_t B = h.size(0), T = h.size(1), H = c_.heads, Dh = c_.head_dim();
    auto heads = [&](const at::Tensor& W, const at::Tensor* norm) {
      at::Tensor t = at::linear(h, W).view({B, T, H, Dh});
      if (norm) t = rope(rms(t, norm), o[7], o[8]);
      return t.transpose(1, 2);
    };
    const at::Tensor q = heads(o[1], &o[5]), k = heads(o[2], &o[6]), v = heads(o[3], nullptr);
    const double scale = 1.0 / std::sqrt(static_cast<double>(Dh));
    const at::Tensor p = at::softmax(at::matmul(q, k.transpose(-1, -2)) * scale, -1);
    return {at::linear(at::matmul(p, v).transpose(1, 2).reshape({B, T, H * Dh}), o[4])};
  }

  std::vector<at::Tensor> attention_operands(const at::Tensor& h, const std::string& p, const at::Tensor& cos,
                                             const at::Tensor& sin) const {
    return {h, w(p + ".wq"), w(p + ".wk"), w(p + ".wv"), w(p + ".wo"), w(p + ".norm_q"), w(p + ".norm_k"), cos, sin};
  }

  static std::vector<at::Tensor> feed_forward_provider(const std::vector<at::Tensor>& o) {
    return {at::linear(at::silu(at::linear(o[0], o[1])) * at::linear(o[0], o[2]), o[3])};
  }

  std::vector<at::Tensor> feed_forward_operands(const at::Tensor& h, const std::string& p) const {
    return {h, w(p + ".w1"), w(p + ".w3"), w(p + ".w2")};
  }

  // The token refiner on the text tokens: operands {c, cos, sin, 11 per block}.
  at::Tensor token_refiner(const at::Tensor& c, const at::Tensor& cos, const at::Tensor& sin) {
    std::vector<at::Tensor> operands = {c, cos, sin};
    for (int j = 0; j < c_.refiner_blocks; ++j) {
      const std::string p = "refiner." + std::to_string(j);
      operands.push_back(w(p + ".norm1"));
      for (const char* n : {".wq", ".wk", ".wv", ".wo", ".norm_q", ".norm_k"}) operands.push_back(w(p + ".attn" + n));
      operands.push_back(w(p + ".norm2"));
      for (const char* n : {".w1", ".w3", ".w2"}) operands.push_back(w(p + ".ff" + n));
    }
    return call1("token_refiner", "token_refiner", false, operands, [this](const std::vector<at::Tensor>& o) {
      at::Tensor x = o[0];
      for (std::size_t f = 3; f < o.size(); f += 11) {
        x = x + attention_provider(
                    {rms(x, &o[f]), o[f + 1], o[f + 2], o[f + 3], o[f + 4], o[f + 5], o[f + 6], o[1], o[2]})[0];
        x = x + feed_forward_provider({rms(x, &o[f + 7]), o[f + 8], o[f + 9], o[f + 10]})[0];
      }
      return std::vector<at::Tensor>{x};
    });
  }

  // Sinusoidal features of 1000 t (cos then sin, frequencies 10000^(-i/half)) through
  // linear -> SiLU -> linear. Operands {t, W1, b1, W2, b2}.
  at::Tensor time_embedder(const at::Tensor& t) {
    return call1(
        "time_embedder", "time_embedder", false,
        {t, w("time.linear1.weight"), w("time.linear1.bias"), w("time.linear2.weight"), w("time.linear2.bias")},
        [this](const std::vector<at::Tensor>& o) {
          const std::int64_t half = c_.time_freqs / 2;
          Tensor freqs = Tensor::zeros(dt_ == at::kDouble ? DType::f64 : DType::f32, {half});
          for (std::int64_t i = 0; i < half; ++i) freqs.set_value(i, timestep_frequency(i, half));
          const at::Tensor args = (o[0] * 1000.0).unsqueeze(1) * to_aten(freqs).unsqueeze(0);
          const at::Tensor feats = at::cat({at::cos(args), at::sin(args)}, -1);
          return std::vector<at::Tensor>{at::linear(at::silu(at::linear(feats, o[1], o[2])), o[3], o[4])};
        });
  }

  // One joint block: AdaLN modulation per modality, attention and feed-forward nodes.
  at::Tensor block(int i, const at::Tensor& x, const at::Tensor& temb, const TokenSplit& s, const at::Tensor& cos,
                   const at::Tensor& sin) {
    const std::string p = "blocks." + std::to_string(i);
    std::vector<at::Tensor> per_token;
    for (auto [m, n] : {std::pair{"video", s.video}, std::pair{"text", s.text}, std::pair{"audio", s.audio}}) {
      const std::string mp = p + ".modulation." + m;
      const at::Tensor mod = call1(mp, "modulation", true, {temb, w(mp + ".weight"), w(mp + ".bias")},
                                   [](const std::vector<at::Tensor>& o) {
                                     return std::vector<at::Tensor>{at::linear(at::silu(o[0]), o[1], o[2])};
                                   });  // [B, 6D]
      per_token.push_back(mod.unsqueeze(1).expand({mod.size(0), n, mod.size(1)}));
    }
    const auto chunks = at::cat(per_token, 1).chunk(6, -1);  // shift1, scale1, gate1, shift2, scale2, gate2
    const at::Tensor h = rms(x, nullptr) * (chunks[1] + 1.0f) + chunks[0];
    const at::Tensor a =
        call1(node_name(i, "attention"), "attention", true, attention_operands(h, p + ".attn", cos, sin),
              [this](const auto& o) { return attention_provider(o); });
    const at::Tensor x1 = x + chunks[2] * a;
    const at::Tensor h2 = rms(x1, nullptr) * (chunks[4] + 1.0f) + chunks[3];
    const at::Tensor f = call1(node_name(i, "feed_forward"), "feed_forward", true, feed_forward_operands(h2, p + ".ff"),
                               [](const auto& o) { return feed_forward_provider(o); });
    return x1 + chunks[5] * f;
  }

  // RMSNorm with AdaLN shift and scale. Operands {x, temb, W, b}.
  at::Tensor norm_out(const at::Tensor& x, const at::Tensor& temb) {
    return call1("norm_out", "norm_out", false,
                 {x, temb, w("norm_out.modulation.weight"), w("norm_out.modulation.bias")},
                 [this](const std::vector<at::Tensor>& o) {
                   const auto ss = at::linear(at::silu(o[1]), o[2], o[3]).unsqueeze(1).chunk(2, -1);
                   return std::vector<at::Tensor>{rms(o[0], nullptr) * (ss[1] + 1.0f) + ss[0]};
                 });
  }

 private:
  const ModelConfig& c_;
  runtime::Runtime* rt_;
  at::ScalarType dt_;
  std::map<std::string, at::Tensor> w_;
};

void check_batch(const ModelConfig& c, const ModelBatch& b) {
  const std::int64_t B = b.batch();
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("model batch: " + what);
  };
  need(b.video.shape() == std::vector<std::int64_t>{B, b.split.video, c.video_channels}, "video must be [B, Tv, Cv]");
  need(b.audio.shape() == std::vector<std::int64_t>{B, b.split.audio, c.audio_channels}, "audio must be [B, Ta, Ca]");
  need(b.text.shape() == std::vector<std::int64_t>{B, b.split.text, c.text_channels} && b.text.dtype() == DType::bf16,
       "text must be bf16 [B, Tt, Ct]");
  need(b.timestep.numel() == B && b.sigma_prev.numel() == B, "timestep and sigma_prev must have B entries");
  need(b.noise.shape() == std::vector<std::int64_t>{B, b.split.video * c.video_channels}, "noise must be [B, Tv*Cv]");
}

struct ForwardPass {
  at::Tensor video_in, video_out, audio_out;
};

// The forward pass; `blocks` (if given) receives each joint block's output.
ForwardPass forward_pass(Forward& f, const ModelConfig& c, const ModelBatch& b, bool video_requires_grad,
                         std::vector<at::Tensor>* blocks) {
  const TokenSplit& s = b.split;
  const RopeTables joint = RopeTables::make(s.total(), c.rope_dims), text = RopeTables::make(s.text, c.rope_dims);
  const at::Tensor jcos = f.input(joint.cos), jsin = f.input(joint.sin);
  const at::Tensor video_in = f.input(b.video).set_requires_grad(video_requires_grad);
  const at::Tensor v = f.linear("proj_in", video_in, "proj_in");
  const at::Tensor a = f.linear("audio_proj_in", f.input(b.audio), "audio_proj_in");
  const at::Tensor ctx = f.token_refiner(f.linear("context_embedder", to_aten(b.text), "context_embedder"),
                                         f.input(text.cos), f.input(text.sin));
  const at::Tensor temb = f.time_embedder(f.input(b.timestep));
  at::Tensor x = at::cat({v, ctx, a}, 1);
  for (int i = 0; i < c.blocks; ++i) {
    x = f.block(i, x, temb, s, jcos, jsin);
    if (blocks) blocks->push_back(x.detach());
  }
  const at::Tensor y = f.norm_out(x, temb);
  return {video_in, f.linear("proj_out", y.narrow(1, 0, s.video), "proj_out"),
          f.linear("audio_proj_out", y.narrow(1, s.video + s.text, s.audio), "audio_proj_out")};
}

// The forward pass and the backward of L = <video, cot_v> + <audio, cot_a> to the video input.
ForwardPass forward_backward(Forward& f, const ModelConfig& c, const ModelBatch& b) {
  const ForwardPass fp = forward_pass(f, c, b, true, nullptr);
  const at::Tensor loss =
      at::sum(fp.video_out * f.input(b.video_cotangent)) + at::sum(fp.audio_out * f.input(b.audio_cotangent));
  loss.backward();
  return fp;
}

// docs/math.md's SDE step and log-prob in float64 (sigma_max 1, a = 0.7, normaliser on): the
// reference for the float32 steps.
std::vector<at::Tensor> transition_step_f64(const at::Tensor& x, const at::Tensor& v, const at::Tensor& eps,
                                            const at::Tensor& sigma_in, const at::Tensor& sigma_prev_in) {
  const at::Tensor sigma = sigma_in.unsqueeze(1), dt = sigma_prev_in.unsqueeze(1) - sigma;
  const at::Tensor std_dev = at::sqrt(sigma / (1.0 - at::where(sigma == 1.0, at::ones_like(sigma), sigma))) * 0.7;
  const at::Tensor var_term = std_dev * std_dev;
  const at::Tensor mean =
      x * (1.0 + var_term / (2.0 * sigma) * dt) + v * (1.0 + var_term * (1.0 - sigma) / (2.0 * sigma)) * dt;
  const at::Tensor scale = std_dev * at::sqrt(-dt);
  const at::Tensor prev = mean + scale * eps;
  const at::Tensor r = prev - mean;
  const at::Tensor logp =
      -(r * r) / (2.0 * scale * scale) - at::log(scale) - std::log(std::sqrt(2.0 * 3.14159265358979323846));
  return {prev, at::mean(logp, {1})};
}

void check_inputs(const ModelConfig& c, const ModelBatch& b) {
  c.validate();
  check_batch(c, b);
}

// The transition step needs 0 <= sigma_prev < sigma < 1 (sigma = 1 would need the schedule's
// sigma_max, which a single step does not have).
void check_step(const ModelBatch& b) {
  for (std::int64_t i = 0; i < b.batch(); ++i) {
    const double sigma = b.timestep.value_at(i), prev = b.sigma_prev.value_at(i);
    if (!(sigma > 0.0 && sigma < 1.0) || !(prev >= 0.0 && prev < sigma))
      throw InputError("model batch: sample " + std::to_string(i) +
                       " needs 0 <= sigma_prev < timestep < 1 for the transition step");
  }
}

}  // namespace

ModelOutputs run_model(const ModelConfig& c, const ModelWeights& weights, const ModelBatch& b, runtime::Runtime* rt) {
  check_inputs(c, b);
  check_step(b);
  at::AutoGradMode grad(true);
  Forward f(c, weights, rt, at::kFloat);
  const ForwardPass pass = forward_backward(f, c, b);
  ModelOutputs out;
  out.video = from_aten(pass.video_out.detach());
  out.audio = from_aten(pass.audio_out.detach());
  out.input_grad = from_aten(pass.video_in.grad());
  const std::int64_t B = b.batch(), n = b.split.video * c.video_channels;
  const std::vector<at::Tensor> step_operands = {pass.video_in.detach().reshape({B, n}),
                                                 pass.video_out.detach().reshape({B, n}), to_aten(b.noise),
                                                 to_aten(b.timestep), to_aten(b.sigma_prev)};
  const auto step = f.call("transition", "transition", false, step_operands, [](const std::vector<at::Tensor>& o) {
    std::vector<Tensor> po;
    for (const auto& t : o) po.push_back(from_aten(t));
    const ops::OpOutputs r = ops::transition_step::torch_row_step(transition_step_inputs(po));
    return std::vector<at::Tensor>{to_aten(r.at("prev")), to_aten(r.at("logp"))};
  });
  out.prev = from_aten(step.at(0));
  out.logp = from_aten(step.at(1));
  return out;
}

ModelVelocity run_model_forward(const ModelConfig& c, const ModelWeights& weights, const ModelBatch& b,
                                runtime::Runtime* rt, std::vector<Tensor>* block_outputs) {
  check_inputs(c, b);
  at::NoGradGuard no_grad;
  Forward f(c, weights, rt, at::kFloat);
  std::vector<at::Tensor> blocks;
  const ForwardPass fp = forward_pass(f, c, b, false, block_outputs ? &blocks : nullptr);
  if (block_outputs)
    for (const auto& x : blocks) block_outputs->push_back(from_aten(x));
  return {from_aten(fp.video_out), from_aten(fp.audio_out)};
}

ModelOutputs run_model_f64(const ModelConfig& c, const ModelWeights& weights, const ModelBatch& b) {
  check_inputs(c, b);
  check_step(b);
  at::AutoGradMode grad(true);
  Forward f(c, weights, nullptr, at::kDouble);
  const ForwardPass pass = forward_backward(f, c, b);
  const std::int64_t B = b.batch(), n = b.split.video * c.video_channels;
  const auto step = transition_step_f64(pass.video_in.detach().reshape({B, n}), pass.video_out.detach().reshape({B, n}),
                                        f.input(b.noise), f.input(b.timestep), f.input(b.sigma_prev));
  return {from_aten(pass.video_out.detach()), from_aten(pass.audio_out.detach()), from_aten(pass.video_in.grad()),
          from_aten(step[0]), from_aten(step[1])};
}

}  // namespace parity::model
