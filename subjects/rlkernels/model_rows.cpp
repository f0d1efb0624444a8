// Host twins of the row-local DiT rows. Loops run over the output index innermost so the
// compiler can vectorise them; each output's own chain still runs in the order
// model_arith.cuh documents. Rows are split across threads by host_parallel.hpp.
#include <parity/subjects/rlkernels/model_rows.hpp>

#include <vector>

#include <parity/subjects/rlkernels/host_parallel.hpp>
#include <parity/subjects/rlkernels/model_arith.cuh>
#include <parity/subjects/rlkernels/model_rows_checks.hpp>
#include <parity/subjects/rlkernels/model_swiglu.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

using std::int64_t;

// The host's elementwise SwiGLU steps, for model_swiglu.hpp.
struct HostRows {
  static Tensor linear_forward(const Tensor& x, const Tensor& W) {
    return model::linear_forward(x, W);
  }
  static Tensor linear_backward_input(const Tensor& dy, const Tensor& W) {
    return model::linear_backward_input(dy, W);
  }
  static Tensor swiglu_gate(const Tensor& a, const Tensor& g) {
    const std::vector<float> av = f32_values(a), gv = f32_values(g);
    F32Output u(a.shape());
    for (std::size_t i = 0; i < av.size(); ++i) u.data[i] = model::swiglu_gate(av[i], gv[i]);
    return u.tensor;
  }
  static Tensor swiglu_gate_backward(const Tensor& a, const Tensor& g, const Tensor& du) {
    const std::vector<float> av = f32_values(a), gv = f32_values(g), duv = f32_values(du);
    const int64_t M = a.dim(0), F = a.dim(1);
    F32Output out({M, 2 * F});
    for (int64_t m = 0; m < M; ++m)
      for (int64_t f = 0; f < F; ++f) {
        const int64_t i = m * F + f;
        model::swiglu_gate_backward(av[i], gv[i], duv[i], &out.data[m * 2 * F + f],
                                    &out.data[m * 2 * F + F + f]);
      }
    return out.tensor;
  }
};

// out[m, :] = chain_l a[m, l] B[l, :] for rows m (B row-major [L, C]), vectorised over C.
void row_chains(const float* a, const float* B, int64_t M, int64_t L, int64_t C, float* out) {
  parallel_ranges(M, [&](int64_t begin, int64_t end) {
    for (int64_t m = begin; m < end; ++m) {
      float* acc = out + m * C;
      for (int64_t l = 0; l < L; ++l) {
        const float am = a[m * L + l];
        const float* b = B + l * C;
        for (int64_t c = 0; c < C; ++c) acc[c] = mac(acc[c], am, b[c]);
      }
    }
  });
}

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

Tensor linear_forward(const Tensor& x, const Tensor& W) {
  const LinearDims d = check_linear(x, W);
  const std::vector<float> xv = f32_values(x), Wv = f32_values(W);
  std::vector<float> Wt(Wv.size());
  for (int64_t n = 0; n < d.N; ++n)
    for (int64_t k = 0; k < d.K; ++k) Wt[k * d.N + n] = Wv[n * d.K + k];
  F32Output y({d.M, d.N});
  row_chains(xv.data(), Wt.data(), d.M, d.K, d.N, y.data);
  return y.tensor;
}

Tensor linear_backward_input(const Tensor& dy, const Tensor& W) {
  const LinearDims d = check_linear_backward(dy, W);
  const std::vector<float> g = f32_values(dy), Wv = f32_values(W);
  F32Output dx({d.M, d.K});
  row_chains(g.data(), Wv.data(), d.M, d.N, d.K, dx.data);
  return dx.tensor;
}

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

Tensor swiglu_forward(const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2) {
  return swiglu_forward_with<HostRows>(h, W1, W3, W2);
}

Tensor swiglu_backward_input(const Tensor& h, const Tensor& W1, const Tensor& W3,
                             const Tensor& W2, const Tensor& d_out) {
  return swiglu_backward_input_with<HostRows>(h, W1, W3, W2, d_out);
}

}  // namespace parity::subjects::rlkernels::model
