#pragma once
// Template bodies of TransitionHostTwin (included by transition_host.hpp only). Operands are
// read once into float32 copies (matrix_view.hpp), not element by element through Tensor.
#include <vector>

#include <parity/subjects/builtin/matrix_view.hpp>

namespace parity::subjects::builtin {

template <class Policy>
void TransitionHostTwin<Policy>::reduce(const std::vector<float>& terms, std::int64_t B, std::int64_t n, Tensor& logp) {
  const int lanes = Policy::lanes(B);
  std::vector<float> lane(static_cast<std::size_t>(lanes));
  auto tree_total = [&](const float* t, std::int64_t count) {
    std::fill(lane.begin(), lane.end(), 0.0f);
    for (std::int64_t i = 0; i < count; ++i) lane[i % lanes] = lane[i % lanes] + t[i];
    transition::fold_lanes(lane.data(), lanes);
    return lane[0];
  };
  if (Policy::reduction == LogpReduction::batch_mean) {
    const float all = transition::row_mean(tree_total(terms.data(), B * n), B * n);
    for (std::int64_t b = 0; b < B; ++b) logp.set_value(b, all);
    return;
  }
  for (std::int64_t b = 0; b < B; ++b) {
    const float total = tree_total(&terms[b * n], n);
    logp.set_value(b, Policy::reduction == LogpReduction::row_sum ? total : transition::row_mean(total, n));
  }
}

template <class Policy>
TransitionOutputs TransitionHostTwin<Policy>::sample(const TransitionInputs& in) {
  validate_transition_inputs(in);
  const std::int64_t B = in.x.dim(0), n = in.x.dim(1);
  TransitionOutputs out{Tensor::zeros(DType::f32, {B, n}), Tensor::zeros(DType::f32, {B, n}),
                        Tensor::zeros(DType::f32, {B}), Tensor::zeros(DType::f32, {B})};
  std::vector<float> terms(static_cast<std::size_t>(B * n));
  const std::vector<float> x = to_floats(MatrixView::of(in.x)), v = to_floats(MatrixView::of(in.v)),
                           eps = to_floats(MatrixView::of(in.eps));
  float* prev = out.prev.storage<float>();
  float* mean = out.mean.storage<float>();
  for (std::int64_t b = 0; b < B; ++b) {
    const transition::Row r = Policy::row(in, b);
    out.std.set_value(b, r.std);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t at = b * n + i;
      const float m = transition::mean_element(r, x[at], v[at]);
      const float p = transition::prev_element(r, m, eps[at]);
      mean[at] = m;
      prev[at] = p;
      terms[at] = transition::logp_term(r, p, m);
    }
  }
  reduce(terms, B, n, out.logp);
  return out;
}

template <class Policy>
Tensor TransitionHostTwin<Policy>::score(const TransitionInputs& in, const Tensor& prev) {
  validate_transition_inputs(in);
  validate_transition_prev(in, prev);
  const std::int64_t B = in.x.dim(0), n = in.x.dim(1);
  Tensor logp = Tensor::zeros(DType::f32, {B});
  std::vector<float> terms(static_cast<std::size_t>(B * n));
  const std::vector<float> x = to_floats(MatrixView::of(in.x)), v = to_floats(MatrixView::of(in.v)),
                           p = to_floats(MatrixView::of(prev));
  for (std::int64_t b = 0; b < B; ++b) {
    const transition::Row r = Policy::row(in, b);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t at = b * n + i;
      const float m = transition::mean_element(r, x[at], v[at]);
      terms[at] = transition::logp_term(r, p[at], m);
    }
  }
  reduce(terms, B, n, logp);
  return logp;
}

}  // namespace parity::subjects::builtin
