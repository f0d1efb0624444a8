// mylib: an RMSNorm kernel registered with PyTorch as mylib::rms_norm, and a deliberately wrong
// copy, mylib::rms_norm_broken (eps added after the square root); and two kernels as people write
// a first one, float32 only and with their own argument names: a linear layer, mylib::linear, with
// an optional bias, and attention over [B, H, S, D] queries and [B, Hkv, S, D] keys and values
// (grouped-query heads, Hkv dividing H), mylib::attention, with a wrong copy,
// mylib::attention_assumes_contiguous, that reads its tensors as if they were contiguous.
// parity tests them by name (CMakeLists.txt); nothing here knows parity.
//   y[t, i] = x[t, i] * (1 / sqrt(mean(x[t, :]^2) + eps)) * w[i]   for x [T, D], w [D]
//   y[t, n] = sum_k input[t, k] * weight[n, k] (+ bias[n])         for input [T, K], weight [N, K]
//   out[b, h, i, :] = softmax_j(softmax_scale * query[b, h, i, :] . key[b, g, j, :]) value[b, g, j, :]
//                     over the keys j <= i where causal, g = h / (H / Hkv), for query [B, H, S, D],
//                     key, value [B, Hkv, S, D]
#include <ATen/ATen.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// x [T, D] and w [D] as contiguous float tensors on their device, and y of x's shape.
struct FloatOperands {
  at::Tensor x, w, y;
};

FloatOperands float_operands(const at::Tensor& x, const at::Tensor& w) {
  TORCH_CHECK(x.dim() == 2 && w.dim() == 1 && x.size(1) == w.size(0), "mylib::rms_norm: x [T, D] and w [D]");
  FloatOperands f{x.to(at::kFloat).contiguous(), w.to(at::kFloat).contiguous(), {}};
  f.y = at::empty_like(f.x);
  return f;
}

// One row at a time in float: the sum of squares in order, then each element.
template <bool kBroken>
at::Tensor rms_norm_cpu(const at::Tensor& x, const at::Tensor& w, double eps) {
  const FloatOperands f = float_operands(x, w);
  const std::int64_t T = x.size(0), D = x.size(1);
  const float* xp = f.x.data_ptr<float>();
  const float* wp = f.w.data_ptr<float>();
  float* yp = f.y.data_ptr<float>();
  const auto e = static_cast<float>(eps);
  for (std::int64_t t = 0; t < T; ++t) {
    const float* row = xp + t * D;
    float sum = 0.0f;
    for (std::int64_t i = 0; i < D; ++i) sum = sum + row[i] * row[i];
    const float mean = sum / static_cast<float>(D);
    const float inv = kBroken ? 1.0f / (std::sqrt(mean) + e) : 1.0f / std::sqrt(mean + e);
    for (std::int64_t i = 0; i < D; ++i) yp[t * D + i] = (row[i] * inv) * wp[i];
  }
  return f.y.to(x.scalar_type());  // bf16: rounded to nearest even
}

// One fma chain per output in k order, then the bias.
at::Tensor linear_cpu(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor>& bias) {
  TORCH_CHECK(input.scalar_type() == at::kFloat && weight.scalar_type() == at::kFloat, "mylib::linear: float32 only");
  const at::Tensor x = input.contiguous(), W = weight.contiguous();
  const at::Tensor b = bias ? bias->contiguous() : at::Tensor();
  const std::int64_t T = x.size(0), K = x.size(1), N = W.size(0);
  at::Tensor y = at::empty({T, N}, x.options());
  const float* xp = x.data_ptr<float>();
  const float* wp = W.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) acc = std::fma(xp[t * K + k], wp[n * K + k], acc);
      yp[t * N + n] = b.defined() ? acc + b.data_ptr<float>()[n] : acc;
    }
  return y;
}

// Element (b, h, s, d) of a float32 [B, H, S, D] tensor: through its strides, or (the wrong copy)
// as if it were contiguous.
template <bool kAssumesContiguous>
float element(const at::Tensor& t, std::int64_t b, std::int64_t h, std::int64_t s, std::int64_t d) {
  const float* p = t.data_ptr<float>();
  if (kAssumesContiguous) return p[((b * t.size(1) + h) * t.size(2) + s) * t.size(3) + d];
  return p[b * t.stride(0) + h * t.stride(1) + s * t.stride(2) + d * t.stride(3)];
}

// Each output row in double: the scores, their maximum subtracted, the weighted sum of the values
// divided by the probabilities' sum, rounded once to float.
template <bool kAssumesContiguous>
at::Tensor attention_cpu(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value, bool causal,
                         double softmax_scale) {
  TORCH_CHECK(query.scalar_type() == at::kFloat && key.scalar_type() == at::kFloat && value.scalar_type() == at::kFloat,
              "mylib::attention: float32 only");
  TORCH_CHECK(query.dim() == 4 && key.dim() == 4 && value.sizes() == key.sizes() && key.size(0) == query.size(0) &&
                  key.size(1) > 0 && query.size(1) % key.size(1) == 0 && key.size(2) == query.size(2) &&
                  key.size(3) == query.size(3),
              "mylib::attention: query [B, H, S, D], key and value [B, Hkv, S, D], Hkv dividing H");
  const std::int64_t B = query.size(0), H = query.size(1), S = query.size(2), D = query.size(3);
  const std::int64_t G = H / key.size(1);  // query heads per key/value head
  at::Tensor out = at::empty({B, H, S, D}, query.options());
  float* o = out.data_ptr<float>();
  std::vector<double> p(static_cast<std::size_t>(S));
  const auto q = [&](auto... i) { return static_cast<double>(element<kAssumesContiguous>(query, i...)); };
  const auto k = [&](auto... i) { return static_cast<double>(element<kAssumesContiguous>(key, i...)); };
  const auto v = [&](auto... i) { return static_cast<double>(element<kAssumesContiguous>(value, i...)); };
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t i = 0; i < S; ++i) {
        const std::int64_t n = causal ? i + 1 : S;
        double m = -INFINITY, l = 0.0;
        for (std::int64_t j = 0; j < n; ++j) {
          double dot = 0.0;
          for (std::int64_t d = 0; d < D; ++d) dot += q(b, h, i, d) * k(b, h / G, j, d);
          p[j] = dot * softmax_scale;
          m = std::max(m, p[j]);
        }
        for (std::int64_t j = 0; j < n; ++j) l += (p[j] = std::exp(p[j] - m));
        for (std::int64_t d = 0; d < D; ++d) {
          double acc = 0.0;
          for (std::int64_t j = 0; j < n; ++j) acc += p[j] * v(b, h / G, j, d);
          o[((b * H + h) * S + i) * D + d] = static_cast<float>(acc / l);
        }
      }
  return out;
}

}  // namespace

#if MYLIB_CUDA
// mylib_cuda.cu: the same arithmetic, one thread per row, on float tensors of the current device.
void mylib_rms_norm_cuda(const float* x, const float* w, float* y, std::int64_t T, std::int64_t D, float eps,
                         bool broken);

namespace {

template <bool kBroken>
at::Tensor rms_norm_cuda(const at::Tensor& x, const at::Tensor& w, double eps) {
  const FloatOperands f = float_operands(x, w);
  mylib_rms_norm_cuda(f.x.data_ptr<float>(), f.w.data_ptr<float>(), f.y.data_ptr<float>(), x.size(0), x.size(1),
                      static_cast<float>(eps), kBroken);
  return f.y.to(x.scalar_type());
}

}  // namespace
#endif

TORCH_LIBRARY(mylib, m) {
  m.def("rms_norm(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("rms_norm_broken(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor");
  m.def("attention(Tensor query, Tensor key, Tensor value, bool causal=False, float softmax_scale=1.0) -> Tensor");
  m.def(
      "attention_assumes_contiguous(Tensor query, Tensor key, Tensor value, bool causal=False, "
      "float softmax_scale=1.0) -> Tensor");
}

TORCH_LIBRARY_IMPL(mylib, CPU, m) {
  m.impl("rms_norm", &rms_norm_cpu<false>);
  m.impl("rms_norm_broken", &rms_norm_cpu<true>);
  m.impl("linear", &linear_cpu);
  m.impl("attention", &attention_cpu<false>);
  m.impl("attention_assumes_contiguous", &attention_cpu<true>);
}

#if MYLIB_CUDA
TORCH_LIBRARY_IMPL(mylib, CUDA, m) {
  m.impl("rms_norm", &rms_norm_cuda<false>);
  m.impl("rms_norm_broken", &rms_norm_cuda<true>);
}
#endif
