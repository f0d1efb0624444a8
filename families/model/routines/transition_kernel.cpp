#include <parity/families/model/routines/transition_kernel.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/families/model/routines/op_output.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::model {
namespace {

// The samples of one call: those whose sigma and sigma_prev have the same bits, in batch order,
// and the call's float32 step.
struct SigmaGroup {
  float sigma = 0, sigma_prev = 0, step = 0;
  std::vector<std::int64_t> samples;
};

// The groups of `in`'s samples; throws InputError, before any call, for a sigma_prev the op
// cannot be given.
std::vector<SigmaGroup> sigma_groups(const ops::transition_step::RowStep& in) {
  std::vector<SigmaGroup> groups;
  for (std::size_t b = 0; b < in.sigma.size(); ++b) {
    const auto same = [&](const SigmaGroup& g) {
      return std::bit_cast<std::uint32_t>(g.sigma) == std::bit_cast<std::uint32_t>(in.sigma[b]) &&
             std::bit_cast<std::uint32_t>(g.sigma_prev) == std::bit_cast<std::uint32_t>(in.sigma_prev[b]);
    };
    if (const auto it = std::ranges::find_if(groups, same); it != groups.end()) {
      it->samples.push_back(static_cast<std::int64_t>(b));
      continue;
    }
    const double exact = static_cast<double>(in.sigma[b]) - static_cast<double>(in.sigma_prev[b]);
    const float step = static_cast<float>(exact);
    const bool gives_back = ops::transition_step::sigma_prev_of(in.sigma[b], step) == in.sigma_prev[b];
    if (static_cast<double>(step) != exact || !gives_back)
      throw InputError("transition_step: sample " + std::to_string(b) + "'s sigma " + number_text(in.sigma[b]) +
                       " and sigma_prev " + number_text(in.sigma_prev[b]) +
                       " differ by no float32 step the op can take (its sigma_prev is float32(sigma - step))");
    groups.push_back({in.sigma[b], in.sigma_prev[b], step, {static_cast<std::int64_t>(b)}});
  }
  return groups;
}

// Rows `samples` of t [B, n], as a contiguous [G, n] tensor of t's dtype, bit for bit.
Tensor gathered(const Tensor& t, const std::vector<std::int64_t>& samples) {
  const std::int64_t n = t.dim(1);
  Tensor out = Tensor::zeros(t.dtype(), {static_cast<std::int64_t>(samples.size()), n});
  for (std::size_t g = 0; g < samples.size(); ++g)
    for (std::int64_t j = 0; j < n; ++j)
      out.set_bits(static_cast<std::int64_t>(g) * n + j, t.bits_at(samples[g] * n + j));
  return out;
}

// Writes the rows of `part` [G, ...] to rows `samples` of `whole` [B, ...], bit for bit.
void scatter(const Tensor& part, const std::vector<std::int64_t>& samples, Tensor& whole) {
  const std::int64_t width = samples.empty() ? 0 : part.numel() / static_cast<std::int64_t>(samples.size());
  for (std::size_t g = 0; g < samples.size(); ++g)
    for (std::int64_t j = 0; j < width; ++j)
      whole.set_bits(samples[g] * width + j, part.bits_at(static_cast<std::int64_t>(g) * width + j));
}

ops::OpCall group_call(const ops::transition_step::RowStep& in, const SigmaGroup& g) {
  ops::OpCall call;
  call.extents = {{"B", static_cast<std::int64_t>(g.samples.size())}, {"n", in.x.dim(1)}};
  Tensor sigma = Tensor::zeros(DType::f32, {static_cast<std::int64_t>(g.samples.size())});
  for (std::int64_t b = 0; b < sigma.numel(); ++b) sigma.set_value(b, g.sigma);
  call.inputs = {{"x", gathered(in.x, g.samples)},
                 {"v", gathered(in.v, g.samples)},
                 {"eps", gathered(in.eps, g.samples)},
                 {"sigma", std::move(sigma)}};
  call.params = {{"type", in.settings.cps ? 1.0 : 0.0},
                 {"step", g.step},
                 {"sigma_max", in.settings.sigma_max},
                 {"noise_level", static_cast<float>(in.settings.noise_level)},
                 {"normaliser", in.settings.normaliser ? 1.0 : 0.0}};
  call.output_dtypes = {{"prev", DType::f32}, {"mean", DType::f32}, {"std", DType::f32}, {"logp", DType::f32}};
  return call;
}

}  // namespace

Primitives with_transition_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel) {
  p.transition_step = [subject, kernel](const ops::transition_step::RowStep& in) {
    ops::transition_step::check_row_step(in);  // its operands, before any call
    const std::int64_t B = in.x.dim(0), n = in.x.dim(1);
    ops::OpOutputs out = {{"prev", Tensor::zeros(DType::f32, {B, n})},
                          {"mean", Tensor::zeros(DType::f32, {B, n})},
                          {"std", Tensor::zeros(DType::f32, {B})},
                          {"logp", Tensor::zeros(DType::f32, {B})}};
    for (const SigmaGroup& g : sigma_groups(in)) {
      ops::OpOutputs part = kernel->run(group_call(in, g));
      const std::int64_t G = static_cast<std::int64_t>(g.samples.size());
      const std::string use = "the model's transition step";
      scatter(float_output(part, "transition_step", subject, "prev", {G, n}, use), g.samples, out.at("prev"));
      scatter(float_output(part, "transition_step", subject, "mean", {G, n}, use), g.samples, out.at("mean"));
      scatter(float_output(part, "transition_step", subject, "std", {G}, use), g.samples, out.at("std"));
      scatter(float_output(part, "transition_step", subject, "logp", {G}, use), g.samples, out.at("logp"));
    }
    return out;
  };
  return p;
}

}  // namespace parity::model
