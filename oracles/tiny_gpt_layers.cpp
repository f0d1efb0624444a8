#include <parity/oracles/tiny_gpt_layers.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace parity::oracles::tiny_gpt {
namespace {

constexpr double kGeluC = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluA = 0.044715;

}  // namespace

void linear_forward(std::span<const double> x, std::span<const double> W, std::span<const double> b, std::int64_t rows,
                    std::int64_t in, std::int64_t out, std::span<double> y) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t o = 0; o < out; ++o) {
      double s = 0.0;
      for (std::int64_t i = 0; i < in; ++i) s += x[r * in + i] * W[o * in + i];
      y[r * out + o] = b.empty() ? s : s + b[o];
    }
}

void linear_backward(std::span<const double> dy, std::span<const double> x, std::span<const double> W,
                     std::int64_t rows, std::int64_t in, std::int64_t out, std::span<double> dx, std::span<double> dW,
                     std::span<double> db) {
  if (!dx.empty())
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < in; ++i) {
        double s = 0.0;
        for (std::int64_t o = 0; o < out; ++o) s += dy[r * out + o] * W[o * in + i];
        dx[r * in + i] = s;
      }
  for (std::int64_t o = 0; o < out; ++o) {
    for (std::int64_t i = 0; i < in; ++i) {
      double s = 0.0;
      for (std::int64_t r = 0; r < rows; ++r) s += dy[r * out + o] * x[r * in + i];
      dW[o * in + i] += s;
    }
    if (!db.empty()) {
      double s = 0.0;
      for (std::int64_t r = 0; r < rows; ++r) s += dy[r * out + o];
      db[o] += s;
    }
  }
}

LayerNormCache layer_norm_forward(std::span<const double> x, std::span<const double> g, std::span<const double> b,
                                  std::int64_t rows, std::int64_t n, double eps, bool unbiased, std::span<double> y) {
  LayerNormCache c;
  c.xhat.resize(static_cast<std::size_t>(rows * n));
  c.rstd.resize(static_cast<std::size_t>(rows));
  const double divisor = static_cast<double>(unbiased ? n - 1 : n);  // n - 1 = 0 gives NaN: the probe's own flaw
  for (std::int64_t r = 0; r < rows; ++r) {
    const double* row = x.data() + r * n;
    double mean = 0.0;
    for (std::int64_t i = 0; i < n; ++i) mean += row[i];
    mean /= static_cast<double>(n);
    double var = 0.0;
    for (std::int64_t i = 0; i < n; ++i) var += (row[i] - mean) * (row[i] - mean);
    var /= divisor;
    const double rstd = 1.0 / std::sqrt(var + eps);
    c.rstd[r] = rstd;
    for (std::int64_t i = 0; i < n; ++i) {
      const double xh = (row[i] - mean) * rstd;
      c.xhat[r * n + i] = xh;
      y[r * n + i] = xh * g[i] + b[i];
    }
  }
  return c;
}

void layer_norm_backward(std::span<const double> dy, const LayerNormCache& cache, std::span<const double> g,
                         std::int64_t rows, std::int64_t n, bool unbiased, std::span<double> dx, std::span<double> dg,
                         std::span<double> db) {
  const double divisor = static_cast<double>(unbiased ? n - 1 : n);
  for (std::int64_t r = 0; r < rows; ++r) {
    double sum_gg = 0.0, sum_gg_xh = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double gg = g[i] * dy[r * n + i];
      sum_gg += gg;
      sum_gg_xh += gg * cache.xhat[r * n + i];
    }
    const double mean_gg = sum_gg / static_cast<double>(n);
    const double proj = sum_gg_xh / divisor;
    for (std::int64_t i = 0; i < n; ++i) {
      const double xh = cache.xhat[r * n + i];
      dx[r * n + i] = cache.rstd[r] * (g[i] * dy[r * n + i] - mean_gg - xh * proj);
      dg[i] += dy[r * n + i] * xh;
      db[i] += dy[r * n + i];
    }
  }
}

void attention_forward(std::span<const double> q, std::span<const double> k, std::span<const double> v, std::int64_t T,
                       std::int64_t d, std::int64_t heads, double scale, bool causal, std::span<double> O,
                       std::span<double> P) {
  const std::int64_t dh = d / heads;
  std::fill(P.begin(), P.end(), 0.0);
  std::vector<double> s(static_cast<std::size_t>(T));
  for (std::int64_t h = 0; h < heads; ++h) {
    const std::int64_t c0 = h * dh;
    for (std::int64_t i = 0; i < T; ++i) {
      const std::int64_t keys = causal ? i + 1 : T;
      double mx = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < keys; ++j) {
        double dot = 0.0;
        for (std::int64_t c = 0; c < dh; ++c) dot += q[i * d + c0 + c] * k[j * d + c0 + c];
        s[j] = scale * dot;
        mx = std::max(mx, s[j]);
      }
      double z = 0.0;
      for (std::int64_t j = 0; j < keys; ++j) {
        s[j] = std::exp(s[j] - mx);
        z += s[j];
      }
      double* p = P.data() + (h * T + i) * T;
      for (std::int64_t j = 0; j < keys; ++j) p[j] = s[j] / z;
      for (std::int64_t c = 0; c < dh; ++c) {
        double o = 0.0;
        for (std::int64_t j = 0; j < keys; ++j) o += p[j] * v[j * d + c0 + c];
        O[i * d + c0 + c] = o;
      }
    }
  }
}

void attention_backward(std::span<const double> dO, std::span<const double> q, std::span<const double> k,
                        std::span<const double> v, std::span<const double> P, std::int64_t T, std::int64_t d,
                        std::int64_t heads, double scale, std::span<double> dq, std::span<double> dk,
                        std::span<double> dv) {
  const std::int64_t dh = d / heads;
  std::fill(dq.begin(), dq.end(), 0.0);
  std::fill(dk.begin(), dk.end(), 0.0);
  std::fill(dv.begin(), dv.end(), 0.0);
  std::vector<double> dp(static_cast<std::size_t>(T));
  for (std::int64_t h = 0; h < heads; ++h) {
    const std::int64_t c0 = h * dh;
    for (std::int64_t i = 0; i < T; ++i) {
      const double* p = P.data() + (h * T + i) * T;
      // Masked keys have p = 0, so they add nothing below; the loops run over all T keys.
      double rowsum = 0.0;
      for (std::int64_t j = 0; j < T; ++j) {
        double dot = 0.0;
        for (std::int64_t c = 0; c < dh; ++c) dot += dO[i * d + c0 + c] * v[j * d + c0 + c];
        dp[j] = dot;
        rowsum += dot * p[j];
      }
      for (std::int64_t j = 0; j < T; ++j) {
        if (p[j] == 0.0) continue;
        const double ds = p[j] * (dp[j] - rowsum);
        for (std::int64_t c = 0; c < dh; ++c) {
          dv[j * d + c0 + c] += p[j] * dO[i * d + c0 + c];
          dq[i * d + c0 + c] += scale * ds * k[j * d + c0 + c];
          dk[j * d + c0 + c] += scale * ds * q[i * d + c0 + c];
        }
      }
    }
  }
}

void gelu_forward(std::span<const double> u, Gelu form, std::span<double> y) {
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double x = u[i];
    if (form == Gelu::tanh) {
      y[i] = 0.5 * x * (1.0 + std::tanh(kGeluC * (x + kGeluA * x * x * x)));
    } else {
      y[i] = x * 0.5 * std::erfc(-x * std::numbers::sqrt2 / 2.0);
    }
  }
}

void gelu_backward(std::span<const double> u, std::span<const double> dy, Gelu form, std::span<double> du) {
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double x = u[i];
    double dydx;
    if (form == Gelu::tanh) {
      const double t = std::tanh(kGeluC * (x + kGeluA * x * x * x));
      dydx = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * kGeluC * (1.0 + 3.0 * kGeluA * x * x);
    } else {
      const double Phi = 0.5 * std::erfc(-x * std::numbers::sqrt2 / 2.0);
      const double phi = std::exp(-0.5 * x * x) * std::numbers::inv_sqrtpi / std::numbers::sqrt2;
      dydx = Phi + x * phi;
    }
    du[i] = dy[i] * dydx;
  }
}

double cross_entropy(std::span<const double> logits, std::span<const std::int64_t> targets, std::int64_t T,
                     std::int64_t vocab, std::span<double> dlogits) {
  double total = 0.0;
  for (std::int64_t t = 0; t < T; ++t) {
    const double* row = logits.data() + t * vocab;
    double mx = -std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < vocab; ++j) mx = std::max(mx, row[j]);
    double z = 0.0;
    for (std::int64_t j = 0; j < vocab; ++j) z += std::exp(row[j] - mx);
    const double lse = mx + std::log(z);
    total += lse - row[targets[t]];
    for (std::int64_t j = 0; j < vocab; ++j)
      dlogits[t * vocab + j] = (std::exp(row[j] - lse) - (j == targets[t] ? 1.0 : 0.0)) / static_cast<double>(T);
  }
  return total / static_cast<double>(T);
}

}  // namespace parity::oracles::tiny_gpt
