#include <parity/families/model/routines/model_routines.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/adaln_routines.hpp>
#include <parity/families/model/routines/attention.hpp>
#include <parity/families/model/routines/feed_forward.hpp>
#include <parity/families/model/routines/routine_checks.hpp>
#include <parity/families/model/routines/routine_shapes.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>
#include <parity/families/model/routines/transition_routine.hpp>

namespace parity::model {
namespace {

using runtime::Backend;
using runtime::BoundaryCall;
using runtime::RoutineInfo;

// A routine whose operands' leading dims are flattened into token rows for a 2-D primitive and
// restored afterwards: y [.., N] = x [.., K] W^T + b.
class LinearRoutine : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {as_token_rows(o.at(0), [&](const Tensor& x) { return p_.linear_forward(x, o.at(1), &o.at(2)); })};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    return {as_token_rows(g.at(0), [&](const Tensor& dy) { return p_.linear_backward_input(dy, o.at(1)); }), Tensor(),
            Tensor()};
  }
};

class AttentionRoutine : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {attention_forward(p_, AttentionOperands::from(o))};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    std::vector<Tensor> grads(o.size());
    grads[0] = attention_backward_input(p_, AttentionOperands::from(o), g.at(0));
    return grads;
  }
};

// Operands {h [B,T,D], w1, w3, w2}.
class FeedForwardRoutine : public PrimitivesRoutine {
 public:
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    return {as_token_rows(o.at(0), [&](const Tensor& h) { return swiglu_forward(p_, h, o.at(1), o.at(2), o.at(3)); })};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>& o, const std::vector<Tensor>& g) const override {
    const Tensor& h = o.at(0);
    const std::int64_t D = h.shape().back();
    Tensor dh = swiglu_backward_input(p_, reshaped(h, {h.numel() / D, D}), o.at(1), o.at(2), o.at(3),
                                      reshaped(g.at(0), {h.numel() / D, D}));
    return {reshaped(dh, h.shape()), Tensor(), Tensor(), Tensor()};
  }
};

// Operands {c [B,T,D], cos, sin, then per block: norm1, wq, wk, wv, wo, norm_q, norm_k, norm2,
// w1, w3, w2}. Each block: x += Attn(RMS(x) norm1); x += FF(RMS(x) norm2). Forward only.
class RefinerRoutine : public PrimitivesRoutine {
 public:
  static constexpr std::size_t kPerBlock = 11;
  using PrimitivesRoutine::PrimitivesRoutine;
  std::vector<Tensor> forward(const std::vector<Tensor>& o) const override {
    if (o.size() < 3 || (o.size() - 3) % kPerBlock != 0) throw InputError("token_refiner_block: bad operand count");
    Tensor x = o[0];
    const std::int64_t D = x.shape().back(), M = x.numel() / D;
    for (std::size_t f = 3; f < o.size(); f += kPerBlock) {
      const Tensor h = reshaped(p_.rms_norm_forward(reshaped(x, {M, D}), &o[f], kRmsEps), x.shape());
      x = add_f32(x,
                  attention_forward(p_, {h, o[f + 1], o[f + 2], o[f + 3], o[f + 4], o[f + 5], o[f + 6], o[1], o[2]}));
      const Tensor h2 = p_.rms_norm_forward(reshaped(x, {M, D}), &o[f + 7], kRmsEps);
      x = add_f32(x, reshaped(swiglu_forward(p_, h2, o[f + 8], o[f + 9], o[f + 10]), x.shape()));
    }
    return {x};
  }
  std::vector<Tensor> backward(const std::vector<Tensor>&, const std::vector<Tensor>&) const override {
    throw InputError("token_refiner_block has no backward (the text path is not differentiated)");
  }
};

std::vector<Tensor> attention_example() { return AttentionOperands::example().list(); }

std::vector<Tensor> feed_forward_example() {
  return {example_operand(DType::f32, {1, 5, 8}, 1), example_operand(DType::f32, {6, 8}, 2),
          example_operand(DType::f32, {6, 8}, 3), example_operand(DType::f32, {8, 6}, 4)};
}

RoutineInfo linear_routine(const PrimitivesOf& of, std::string name, std::string boundary, DType x_dtype,
                           runtime::OptIn opt_in) {
  const std::string dt(dtype_name(x_dtype));
  const auto make = routine_maker<LinearRoutine>(of);
  return RoutineInfo{name,
                     "linear",
                     "x " + dt + ", W " + dt + ", b f32 -> y f32",
                     "x [..., K], W [N, K], b [N]",
                     {boundary},
                     opt_in,
                     true,
                     [x_dtype](const BoundaryCall& call, Backend backend) {
                       return refusal(call, backend, {x_dtype, x_dtype, DType::f32}, {"x", "W", "b"}, linear_shapes);
                     },
                     make,
                     repeatable_self_check(
                         make,
                         [x_dtype] {
                           return std::vector<Tensor>{example_operand(x_dtype, {3, 5}, 1),
                                                      example_operand(x_dtype, {4, 5}, 2),
                                                      example_operand(DType::f32, {4}, 3)};
                         },
                         true)};
}

}  // namespace

runtime::RoutineRegistry model_routines_on(const PrimitivesOf& of) {
  runtime::RoutineRegistry r;
  r.add(linear_routine(of, "audio_input_projection_fp32", "audio_proj_in", DType::f32, runtime::OptIn::none));
  r.add(linear_routine(of, "audio_output_projection_fp32", "audio_proj_out", DType::f32, runtime::OptIn::none));
  r.add(linear_routine(of, "text_context_projection", "context_embedder", DType::bf16, runtime::OptIn::none));
  r.add(linear_routine(of, "video_input_projection_fp32", "proj_in", DType::f32, runtime::OptIn::video_projections));
  r.add(linear_routine(of, "video_output_projection_fp32", "proj_out", DType::f32, runtime::OptIn::video_projections));
  r.add(f32_routine<AttentionRoutine>(of, "joint_attention", "attention", "h [B, T, D], heads = D / len(norm_q)",
                                      "attention", {"h", "wq", "wk", "wv", "wo", "norm_q", "norm_k", "cos", "sin"},
                                      runtime::OptIn::none, true, attention_shapes, attention_example));
  r.add(f32_routine<FeedForwardRoutine>(of, "swiglu_feed_forward", "swiglu", "h [..., D], W1, W3 [F, D], W2 [D, F]",
                                        "feed_forward", {"h", "w1", "w3", "w2"}, runtime::OptIn::none, true,
                                        feed_forward_shapes, feed_forward_example));
  r.add(RoutineInfo{
      "token_refiner_block",
      "refiner",
      "all f32",
      "c [B, Tt, D], 11 operands per block",
      {"token_refiner"},
      runtime::OptIn::none,
      false,
      [](const BoundaryCall& call, Backend backend) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < call.operands.size(); ++i) names.push_back(std::to_string(i));
        return refusal(call, backend, std::vector<DType>(call.operands.size(), DType::f32), names, refiner_shapes);
      },
      routine_maker<RefinerRoutine>(of),
      repeatable_self_check(
          routine_maker<RefinerRoutine>(of),
          [] {
            std::vector<Tensor> o = {example_operand(DType::f32, {1, 5, 8}, 1), example_operand(DType::f32, {5, 1}, 8),
                                     example_operand(DType::f32, {5, 1}, 9), example_operand(DType::f32, {8}, 10)};
            auto a = attention_example();
            o.insert(o.end(), a.begin() + 1, a.begin() + 7);
            o.push_back(example_operand(DType::f32, {8}, 11));
            auto f = feed_forward_example();
            o.insert(o.end(), f.begin() + 1, f.end());
            return o;
          },
          false)});
  r.add(transition_routine(of));
  r.add(timestep_embedder_routine(of));
  r.add(adaln_modulation_routine(of));
  r.add(adaln_norm_out_routine(of));
  return r;
}

const runtime::RoutineRegistry& model_routines() {
  static const runtime::RoutineRegistry registry = model_routines_on(paritys_primitives());
  return registry;
}

}  // namespace parity::model
