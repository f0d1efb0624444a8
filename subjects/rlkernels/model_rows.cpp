// Host twins of the row-local DiT rows: each output's own chain runs in the order
// model_arith.cuh documents.
#include <parity/subjects/rlkernels/model_rows.hpp>

#include <vector>

#include <parity/subjects/rlkernels/model_arith.cuh>
#include <parity/subjects/rlkernels/model_rows_checks.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

using std::int64_t;

Tensor rope_apply(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims,
                  float sign, const char* what) {
  const RopeDims d = check_rope(x, cos, sin, rope_dims, what);
  const std::vector<float> xv = f32_values(x), cv = f32_values(cos), sv = f32_values(sin);
  F32Output out(x.shape());
  const int64_t half = d.R / 2;
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t t = 0; t < d.T; ++t)
      for (int64_t h = 0; h < d.H; ++h) {
        const int64_t base = ((b * d.T + t) * d.H + h) * d.Dh;
        for (int64_t i = 0; i < half; ++i)
          rope_pair(xv[base + i], xv[base + i + half], cv[t * half + i], sign * sv[t * half + i],
                    &out.data[base + i], &out.data[base + i + half]);
        for (int64_t i = d.R; i < d.Dh; ++i) out.data[base + i] = xv[base + i];
      }
  return out.tensor;
}

}  // namespace

Tensor rms_norm_forward(const Tensor& x, const Tensor* w, float eps) {
  const RowDims d = check_rms(x, w, nullptr, "rms_norm_forward");
  const std::vector<float> xv = f32_values(x), wv = w ? f32_values(*w) : std::vector<float>{};
  F32Output y(x.shape());
  const float* wp = w ? wv.data() : nullptr;
  for (int64_t m = 0; m < d.M; ++m) rms_norm_row(&xv[m * d.C], wp, d.C, eps, &y.data[m * d.C]);
  return y.tensor;
}

Tensor rms_norm_backward_input(const Tensor& x, const Tensor* w, float eps, const Tensor& dy) {
  const RowDims d = check_rms(x, w, &dy, "rms_norm_backward_input");
  const std::vector<float> xv = f32_values(x), g = f32_values(dy);
  const std::vector<float> wv = w ? f32_values(*w) : std::vector<float>{};
  F32Output dx(x.shape());
  const float* wp = w ? wv.data() : nullptr;
  for (int64_t m = 0; m < d.M; ++m)
    rms_norm_backward_row(&xv[m * d.C], wp, d.C, eps, &g[m * d.C], &dx.data[m * d.C]);
  return dx.tensor;
}

Tensor rope_forward(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims) {
  return rope_apply(x, cos, sin, rope_dims, 1.0f, "rope_forward");
}

Tensor rope_backward_input(const Tensor& dy, const Tensor& cos, const Tensor& sin, int rope_dims) {
  return rope_apply(dy, cos, sin, rope_dims, -1.0f, "rope_backward_input");
}

Tensor swiglu_gate_backward(const Tensor& ag, const Tensor& du) {
  const SwigluGateDims d = check_swiglu_gate_backward(ag, du);
  const std::vector<float> agv = f32_values(ag), duv = f32_values(du);
  F32Output out({d.M, 2 * d.F});
  for (int64_t m = 0; m < d.M; ++m)
    for (int64_t f = 0; f < d.F; ++f) {
      const int64_t a = m * 2 * d.F + f, g = a + d.F;
      swiglu_gate_backward(agv[a], agv[g], duv[m * d.F + f], &out.data[a], &out.data[g]);
    }
  return out.tensor;
}

}  // namespace parity::subjects::rlkernels::model
