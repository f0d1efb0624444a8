// Operators beside examples/torch_op/mylib.cpp's, for torch_op_cli_test.sh: each either maps to
// rms_norm only through --torch-arg or a default, or is refused for a reason the test names.
// Each correct one calls mylib::rms_norm through the dispatcher. And two float32 linear operators
// for the model's projections, on mylib::linear: `linear` sums each output over k in ascending
// order, whatever the batch; `linear_by_rows` sums in descending order when its row count is even, as a kernel that
// plans by the row count might: a sample's tokens alone and in a batch of two are an odd and an
// even count, so the model's batch invariance must catch it. `rms_norm_by_rows` is mylib::rms_norm
// with y rounded through bf16 when its row count is even, the same defect in the routines that
// run RMSNorm (--kernel-op rms_norm). And softmax operators that return fewer or more tensors than
// the softmax op declares outputs (y and log_y), for --torch-returns: `softmax_only` (y),
// `log_softmax_only` (log_y) and `softmax_and_count` (y and a count that is no output). And an
// attention that returns its output as a matrix, not in sdpa's dims (`attention_flat`), and
// sdpa_varlen's formula with FlashAttention's varlen arguments (`attention_varlen`).
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

namespace {

at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& w, double eps) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("mylib::rms_norm", "")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&, double)>();
  return op.call(x, w, eps);
}

at::Tensor defaulted(const at::Tensor& x, const at::Tensor& w, double eps, std::int64_t groups) {
  TORCH_CHECK(groups == 1, "groups must be its default");
  return rms_norm(x, w, eps);
}
at::Tensor float_weight(const at::Tensor& x, double, double) { return x; }
at::Tensor no_weight(const at::Tensor& x, double) { return x; }
std::tuple<at::Tensor, at::Tensor> two(const at::Tensor& x, const at::Tensor& w, double eps) {
  return {rms_norm(x, w, eps), x};
}
at::Tensor always_f32(const at::Tensor& x, const at::Tensor& w, double eps) {
  return rms_norm(x, w, eps).to(at::kFloat);
}
at::Tensor rms_norm_by_rows(const at::Tensor& x, const at::Tensor& w, double eps) {
  const at::Tensor y = rms_norm(x, w, eps);
  return x.size(0) % 2 == 0 ? y.to(at::kBFloat16).to(y.scalar_type()) : y;
}

// examples/torch_op/mylib.cpp's float32 linear (one fma chain per output in k order), through
// the dispatcher; `linear_by_rows` reverses k (x and W flipped along it) for an even row count.
at::Tensor mylib_linear(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b) {
  static const auto op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("mylib::linear", "")
          .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const c10::optional<at::Tensor>&)>();
  return op.call(x, W, b);
}
at::Tensor linear(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b, std::int64_t) {
  return mylib_linear(x, W, b);
}
at::Tensor linear_by_rows(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b, std::int64_t) {
  return x.size(0) % 2 == 0 ? mylib_linear(x.flip({1}), W.flip({1}), b) : mylib_linear(x, W, b);
}

// rms_norm, after checking that each literal and converted value reached it exactly as
// torch_op_cli_test.sh gives it: dim=-1, flag=false, shape=[D], dtype=f32, scale=0.5, unused=None,
// and the extent D as an int (d) and as a one-element list (ds).
at::Tensor literals(const at::Tensor& x, const at::Tensor& w, double eps, std::int64_t dim, bool flag,
                    c10::IntArrayRef shape, c10::optional<at::ScalarType> dtype, double scale,
                    const c10::optional<at::Tensor>& unused, std::int64_t d, c10::IntArrayRef ds) {
  TORCH_CHECK(dim == -1, "literals: dim is ", dim, ", not -1");
  TORCH_CHECK(!flag, "literals: flag is true, not false");
  TORCH_CHECK(shape.size() == 1 && shape[0] == x.size(1), "literals: shape is not [D]");
  TORCH_CHECK(dtype && *dtype == at::kFloat, "literals: dtype is not float32");
  TORCH_CHECK(scale == 0.5, "literals: scale is ", scale, ", not 0.5");
  TORCH_CHECK(!unused, "literals: unused is not None");
  TORCH_CHECK(d == x.size(1), "literals: d is ", d, ", not D = ", x.size(1));
  TORCH_CHECK(ds.size() == 1 && ds[0] == x.size(1), "literals: ds is not [D]");
  return rms_norm(x, w, eps);
}

// Zeros of linear's y, after checking that linear's bias parameter reached `has_bias` as a bool
// that agrees with the optional b (None where the case has no bias).
at::Tensor presence(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b, bool has_bias) {
  TORCH_CHECK(b.has_value() == has_bias, "presence: b is ", b ? "a tensor" : "None", " but has_bias is ", has_bias);
  TORCH_CHECK(!b || b->size(0) == W.size(0), "presence: b is not [N]");
  return at::zeros({x.size(0), W.size(0)}, x.options());
}
// The same without the flag: linear's bias parameter needs no argument, b's None says it.
at::Tensor presence_only(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b) {
  TORCH_CHECK(!b || b->size(0) == W.size(0), "presence: b is not [N]");
  return at::zeros({x.size(0), W.size(0)}, x.options());
}
// rms_norm for float32 only, as a first kernel often is.
at::Tensor f32_only(const at::Tensor& x, const at::Tensor& w, double eps) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "f32_only: float32 only, not ", x.scalar_type());
  return rms_norm(x, w, eps);
}
// mylib::rms_norm_broken (eps after the square root) for float32 only.
at::Tensor f32_only_broken(const at::Tensor& x, const at::Tensor& w, double eps) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "f32_only_broken: float32 only, not ", x.scalar_type());
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("mylib::rms_norm_broken", "")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&, double)>();
  return op.call(x, w, eps);
}
// Zeros of linear's y, for cases with a bias only.
at::Tensor needs_bias(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b) {
  TORCH_CHECK(b.has_value(), "needs_bias: no bias");
  return at::zeros({x.size(0), W.size(0)}, x.options());
}
at::Tensor named_weight(const at::Tensor& x, at::Dimname, double) { return x; }
// Softmax over the rows of x [T, N] in float, the maximum subtracted: y, or (kLog) log y.
template <bool kLog>
at::Tensor softmax_rows(const at::Tensor& x) {
  const at::Tensor xf = x.to(at::kFloat).contiguous();
  at::Tensor y = at::empty_like(xf);
  const std::int64_t T = xf.size(0), N = xf.size(1);
  const float* xp = xf.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  for (std::int64_t t = 0; t < T; ++t) {
    const float* row = xp + t * N;
    float max = row[0], sum = 0.0f;
    for (std::int64_t i = 1; i < N; ++i) max = std::max(max, row[i]);
    for (std::int64_t i = 0; i < N; ++i) sum += std::exp(row[i] - max);
    for (std::int64_t i = 0; i < N; ++i)
      yp[t * N + i] = kLog ? (row[i] - max) - std::log(sum) : std::exp(row[i] - max) / sum;
  }
  return y.to(x.scalar_type());
}
// Softmax with a second return that is no output of the op (the rows it saw).
std::tuple<at::Tensor, at::Tensor> softmax_and_count(const at::Tensor& x) {
  return {softmax_rows<false>(x), at::full({1}, x.size(0), x.options().dtype(at::kLong))};
}
// Attention's o as the engine's matrix [B, S*H*D] instead of sdpa's dims [B, H, S, D] (the values
// are query's): refused by its shape.
at::Tensor attention_flat(const at::Tensor& query, const at::Tensor&, const at::Tensor&, bool, double) {
  return query.flatten(1).contiguous();
}
// sdpa_varlen's formula in float32, a packed sequence at a time (FlashAttention's varlen
// arguments: q [total, H, D], k, v [total, Hkv, D], cu_seqlens int32 [B + 1], max_seqlen), its
// grouped heads repeated; o [total, H, D] and lse [total, H].
std::tuple<at::Tensor, at::Tensor> attention_varlen(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                                    const at::Tensor& cu_seqlens, std::int64_t max_seqlen, bool causal,
                                                    double scale) {
  TORCH_CHECK(cu_seqlens.scalar_type() == at::kInt && cu_seqlens.dim() == 1, "cu_seqlens must be int32 [B + 1]");
  TORCH_CHECK(cu_seqlens[-1].item<std::int64_t>() == q.size(0), "cu_seqlens must end at q's total");
  std::vector<at::Tensor> os, lses;
  const std::int64_t G = q.size(1) / k.size(1);
  for (std::int64_t b = 0; b + 1 < cu_seqlens.size(0); ++b) {
    const std::int64_t start = cu_seqlens[b].item<std::int64_t>(), n = cu_seqlens[b + 1].item<std::int64_t>() - start;
    TORCH_CHECK(n >= 1 && n <= max_seqlen, "a sequence outside [1, max_seqlen]");
    const auto heads = [&](const at::Tensor& x) { return x.narrow(0, start, n).transpose(0, 1).to(at::kFloat); };
    at::Tensor s = at::matmul(heads(q), heads(k).repeat_interleave(G, 0).transpose(-2, -1)).mul(scale);
    if (causal)
      s = s.masked_fill(at::ones({n, n}, at::TensorOptions().dtype(at::kBool)).triu(1),
                        -std::numeric_limits<float>::infinity());
    os.push_back(at::matmul(at::softmax(s, -1), heads(v).repeat_interleave(G, 0)).transpose(0, 1).to(q.scalar_type()));
    // m + log(sum exp(s - m)) as the formula writes it (at::logsumexp keeps an Inf maximum's Inf).
    const at::Tensor m = std::get<0>(s.max(-1, true));
    lses.push_back((m + (s - m).exp().sum(-1, true).log()).squeeze(-1).transpose(0, 1).to(q.scalar_type()));
  }
  return {at::cat(os), at::cat(lses)};
}
at::Tensor softmax_int(const at::Tensor& x, std::int64_t, c10::optional<at::ScalarType>) { return x; }
at::Tensor softmax_name(const at::Tensor& x, at::Dimname, c10::optional<at::ScalarType>) { return x; }

}  // namespace

TORCH_LIBRARY(parity_test, m) {
  m.def(
      "literals(Tensor x, Tensor w, float eps, int dim, bool flag, int[] shape, ScalarType? dtype, float scale, "
      "Tensor? unused, int d, int[] ds) -> Tensor");
  m.def("presence(Tensor x, Tensor W, Tensor? b, bool has_bias) -> Tensor");
  m.def("presence_only(Tensor x, Tensor W, Tensor? b) -> Tensor");
  m.def("f32_only(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("f32_only_broken(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("needs_bias(Tensor x, Tensor W, Tensor? b) -> Tensor");
  m.def("picked.tensor(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("picked.Dimname(Tensor x, Dimname w, float eps) -> Tensor");
  m.def("overloaded.int(Tensor x, int dim, ScalarType? dtype=None) -> Tensor");
  m.def("overloaded.Dimname(Tensor x, Dimname dim, ScalarType? dtype=None) -> Tensor");
  m.def("renamed(Tensor input, Tensor weight, float epsilon) -> Tensor");
  m.def("defaulted(Tensor x, Tensor w, float eps, int groups=1) -> Tensor");
  m.def("extra(Tensor x, Tensor w, float eps, int groups) -> Tensor");
  m.def("float_weight(Tensor x, float w, float eps) -> Tensor");
  m.def("no_weight(Tensor x, float eps) -> Tensor");
  m.def("two(Tensor x, Tensor w, float eps) -> (Tensor, Tensor)");
  m.def("always_f32(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("linear(Tensor x, Tensor W, Tensor? b, int bias) -> Tensor");
  m.def("linear_by_rows(Tensor x, Tensor W, Tensor? b, int bias) -> Tensor");
  m.def("rms_norm_by_rows(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("softmax_only(Tensor x) -> Tensor");
  m.def("log_softmax_only(Tensor x) -> Tensor");
  m.def("softmax_and_count(Tensor x) -> (Tensor, Tensor)");
  m.def("attention_flat(Tensor q, Tensor k, Tensor v, bool causal, float scale) -> Tensor");
  m.def(
      "attention_varlen(Tensor q, Tensor k, Tensor v, Tensor cu_seqlens, int max_seqlen, bool causal, float scale) "
      "-> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(parity_test, CPU, m) {
  m.impl("renamed", &rms_norm);
  m.impl("defaulted", &defaulted);
  m.impl("extra", &defaulted);
  m.impl("float_weight", &float_weight);
  m.impl("no_weight", &no_weight);
  m.impl("two", &two);
  m.impl("always_f32", &always_f32);
  m.impl("linear", &linear);
  m.impl("linear_by_rows", &linear_by_rows);
  m.impl("rms_norm_by_rows", &rms_norm_by_rows);
  m.impl("literals", &literals);
  m.impl("presence", &presence);
  m.impl("presence_only", &presence_only);
  m.impl("f32_only", &f32_only);
  m.impl("f32_only_broken", &f32_only_broken);
  m.impl("needs_bias", &needs_bias);
  m.impl("picked.tensor", &rms_norm);
  m.impl("picked.Dimname", &named_weight);
  m.impl("overloaded.int", &softmax_int);
  m.impl("overloaded.Dimname", &softmax_name);
  m.impl("softmax_only", &softmax_rows<false>);
  m.impl("log_softmax_only", &softmax_rows<true>);
  m.impl("softmax_and_count", &softmax_and_count);
  m.impl("attention_flat", &attention_flat);
  m.impl("attention_varlen", &attention_varlen);
}
