// mylib: an RMSNorm kernel registered with PyTorch as mylib::rms_norm, and a deliberately wrong
// copy, mylib::rms_norm_broken (eps added after the square root); and a linear layer as people
// write a first one, mylib::linear: float32 only, PyTorch's argument names, an optional bias.
// parity tests them by name (CMakeLists.txt); nothing here knows parity.
//   y[t, i] = x[t, i] * (1 / sqrt(mean(x[t, :]^2) + eps)) * w[i]   for x [T, D], w [D]
//   y[t, n] = sum_k input[t, k] * weight[n, k] (+ bias[n])         for input [T, K], weight [N, K]
#include <ATen/ATen.h>
#include <torch/library.h>

#include <cmath>

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
}

TORCH_LIBRARY_IMPL(mylib, CPU, m) {
  m.impl("rms_norm", &rms_norm_cpu<false>);
  m.impl("rms_norm_broken", &rms_norm_cpu<true>);
  m.impl("linear", &linear_cpu);
}

#if MYLIB_CUDA
TORCH_LIBRARY_IMPL(mylib, CUDA, m) {
  m.impl("rms_norm", &rms_norm_cuda<false>);
  m.impl("rms_norm_broken", &rms_norm_cuda<true>);
}
#endif
