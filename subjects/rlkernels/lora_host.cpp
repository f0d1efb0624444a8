#include "subjects/rlkernels/lora_host.hpp"

namespace parity::subjects::rlkernels {

std::vector<float> unpack_f32(const Tensor& t) {
  std::vector<float> v(static_cast<std::size_t>(t.numel()));
  for (std::int64_t i = 0; i < t.numel(); ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(t.value_at(i));
  return v;
}

LoraPacked LoraPacked::from(const LoraInputs& in) {
  LoraPacked p;
  p.T = in.x.dim(0);
  p.K = in.x.dim(1);
  p.N = in.W.dim(0);
  p.r = in.A.dim(0);
  p.x = unpack_f32(in.x);
  p.W = unpack_f32(in.W);
  p.A = unpack_f32(in.A);
  p.B = unpack_f32(in.B);
  p.Wt.resize(p.W.size());
  for (std::int64_t n = 0; n < p.N; ++n)
    for (std::int64_t k = 0; k < p.K; ++k) p.Wt[k * p.N + n] = p.W[n * p.K + k];
  p.Bt.resize(p.B.size());
  for (std::int64_t n = 0; n < p.N; ++n)
    for (std::int64_t j = 0; j < p.r; ++j) p.Bt[j * p.N + n] = p.B[n * p.r + j];
  return p;
}

template class LoraHostTwin<StandardArithmetic>;

std::unique_ptr<LoraSubject> make_lora_host_twin() {
  return std::make_unique<LoraHostTwin<StandardArithmetic>>();
}

}  // namespace parity::subjects::rlkernels
