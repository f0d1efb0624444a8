// Host twin of the attention rows: softmax(q k^T scale) v and its backward, per (b, h), in
// the orders model_arith.cuh documents. Scores and dP run vectorised over keys (k and v
// transposed); the backward stages P and dS per head, then reduces them over queries for dk
// and dv. Query rows (forward, dq) and key rows (dk, dv) are split across threads.
#include <cmath>
#include <vector>

#include <parity/subjects/rlkernels/host_parallel.hpp>
#include <parity/subjects/rlkernels/model_arith.cuh>
#include <parity/subjects/rlkernels/model_rows.hpp>
#include <parity/subjects/rlkernels/model_rows_checks.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

using std::int64_t;

// One (b, h) slice of q, k, v (and d_out), with k and v also transposed to [Dh][Tk].
struct Head {
  const float *q, *k, *v, *dout;
  std::vector<float> kt, vt;
  int64_t Tq, Tk, Dh;
  float scale;

  Head(const float* q_, const float* k_, const float* v_, const float* dout_, const SdpaDims& d,
       float scale_)
      : q(q_), k(k_), v(v_), dout(dout_), kt(transposed(k_, d)), vt(transposed(v_, d)),
        Tq(d.Tq), Tk(d.Tk), Dh(d.Dh), scale(scale_) {}

  static std::vector<float> transposed(const float* a, const SdpaDims& d) {
    std::vector<float> t(static_cast<std::size_t>(d.Tk * d.Dh));
    for (int64_t j = 0; j < d.Tk; ++j)
      for (int64_t c = 0; c < d.Dh; ++c) t[c * d.Tk + j] = a[j * d.Dh + c];
    return t;
  }

  // out[j] = chain_d a[d] bt[d][j] for every key j.
  void key_chains(const float* a, const std::vector<float>& bt, float* out) const {
    for (int64_t j = 0; j < Tk; ++j) out[j] = 0.0f;
    for (int64_t c = 0; c < Dh; ++c) {
      const float ac = a[c];
      const float* b = &bt[c * Tk];
      for (int64_t j = 0; j < Tk; ++j) out[j] = mac(out[j], ac, b[j]);
    }
  }

  // p[j] = P_ij for query row i.
  void probabilities(int64_t i, float* p) const {
    key_chains(q + i * Dh, kt, p);
    float m = -INFINITY;
    for (int64_t j = 0; j < Tk; ++j) {
      p[j] = scaled(p[j], scale);
      m = running_max(m, p[j]);
    }
    float l = 0.0f;
    for (int64_t j = 0; j < Tk; ++j) {
      p[j] = softmax_weight(p[j], m);
      l = l + p[j];
    }
    for (int64_t j = 0; j < Tk; ++j) p[j] = softmax_prob(p[j], l);
  }

  // out[c] = chain_j w[j] rows[j][c] for c < Dh (rows row-major [Tk][Dh]).
  void weighted_rows(const float* w, const float* rows, float* out) const {
    for (int64_t c = 0; c < Dh; ++c) out[c] = 0.0f;
    for (int64_t j = 0; j < Tk; ++j) {
      const float wj = w[j];
      const float* r = rows + j * Dh;
      for (int64_t c = 0; c < Dh; ++c) out[c] = mac(out[c], wj, r[c]);
    }
  }
};

struct Operands {
  SdpaDims d;
  std::vector<float> q, k, v, dout;
  int64_t q_head, kv_head;  // elements per (b, h) slice

  Operands(const Tensor& q_, const Tensor& k_, const Tensor& v_, const Tensor* dout_,
           const char* what)
      : d(check_sdpa(q_, k_, v_, dout_, what)), q(f32_values(q_)), k(f32_values(k_)),
        v(f32_values(v_)), dout(dout_ ? f32_values(*dout_) : std::vector<float>{}),
        q_head(d.Tq * d.Dh), kv_head(d.Tk * d.Dh) {}

  Head head(int64_t bh, float scale) const {
    return Head(&q[bh * q_head], &k[bh * kv_head], &v[bh * kv_head],
                dout.empty() ? nullptr : &dout[bh * q_head], d, scale);
  }
};

}  // namespace

Tensor sdpa_forward(const Tensor& q, const Tensor& k, const Tensor& v, float scale) {
  const Operands ops(q, k, v, nullptr, "sdpa_forward");
  F32Output o(q.shape());
  for (int64_t bh = 0; bh < ops.d.B * ops.d.H; ++bh) {
    const Head hd = ops.head(bh, scale);
    float* out = o.data + bh * ops.q_head;
    parallel_ranges(hd.Tq, [&](int64_t begin, int64_t end) {
      std::vector<float> p(static_cast<std::size_t>(hd.Tk));
      for (int64_t i = begin; i < end; ++i) {
        hd.probabilities(i, p.data());
        hd.weighted_rows(p.data(), hd.v, out + i * hd.Dh);
      }
    });
  }
  return o.tensor;
}

SdpaGrads sdpa_backward(const Tensor& q, const Tensor& k, const Tensor& v, float scale,
                        const Tensor& d_out) {
  const Operands ops(q, k, v, &d_out, "sdpa_backward");
  F32Output dq(q.shape()), dk(k.shape()), dv(v.shape());
  const int64_t Tq = ops.d.Tq, Tk = ops.d.Tk, Dh = ops.d.Dh;
  std::vector<float> P(static_cast<std::size_t>(Tq * Tk)), dS(P.size());
  for (int64_t bh = 0; bh < ops.d.B * ops.d.H; ++bh) {
    const Head hd = ops.head(bh, scale);
    float* dqh = dq.data + bh * ops.q_head;
    parallel_ranges(Tq, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        float* p = &P[i * Tk];
        float* ds = &dS[i * Tk];
        hd.probabilities(i, p);
        hd.key_chains(hd.dout + i * Dh, hd.vt, ds);  // dP_ij
        float row_dot = 0.0f;
        for (int64_t j = 0; j < Tk; ++j) row_dot = mac(row_dot, p[j], ds[j]);
        for (int64_t j = 0; j < Tk; ++j) ds[j] = score_gradient(p[j], ds[j], row_dot);
        float* dqi = dqh + i * Dh;
        hd.weighted_rows(ds, hd.k, dqi);
        for (int64_t c = 0; c < Dh; ++c) dqi[c] = scaled(dqi[c], scale);
      }
    });
    float* dkh = dk.data + bh * ops.kv_head;
    float* dvh = dv.data + bh * ops.kv_head;
    parallel_ranges(Tk, [&](int64_t begin, int64_t end) {
      for (int64_t i = 0; i < Tq; ++i) {
        const float* qi = hd.q + i * Dh;
        const float* doi = hd.dout + i * Dh;
        for (int64_t j = begin; j < end; ++j) {
          const float p = P[i * Tk + j], ds = dS[i * Tk + j];
          float* dkj = dkh + j * Dh;
          float* dvj = dvh + j * Dh;
          for (int64_t c = 0; c < Dh; ++c) {
            dvj[c] = mac(dvj[c], p, doi[c]);
            dkj[c] = mac(dkj[c], ds, qi[c]);
          }
        }
      }
      for (int64_t e = begin * Dh; e < end * Dh; ++e) dkh[e] = scaled(dkh[e], scale);
    });
  }
  return {dq.tensor, dk.tensor, dv.tensor};
}

}  // namespace parity::subjects::rlkernels::model
