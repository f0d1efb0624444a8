// The CUDA attention kernels: one thread per (b, h, query row) for the forward and the
// backward's row terms, one per (b, key/value head, key) for dk and dv (summed over the
// head's G query heads in group_column_sum's order). All arithmetic is sdpa_kernel.cuh's
// PARITY_HD code (compiled with --fmad=false) in the host twins' order, so every output equals
// the twins' bit for bit. Operands are [B, H, S, D] in their own memory order, indexed by their
// strides (device_operand.cuh); outputs are written contiguous [B, H, S, D] (dk, dv
// [B, Hkv, S, D]); scratch rows (scores, P, dS) live in global memory.
#include <cstdint>

#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_kernel.cuh>
#include <parity/ops/sdpa/sdpa_op.hpp>
#include <parity/subjects/builtin/cuda_memory.cuh>

namespace parity::ops::sdpa {
namespace {

using kernels::DeviceOut;
using subjects::builtin::cuda::DeviceBuffer;
using View = kernels::DeviceView4;  // a [B, H, S, D] operand

// Head h of batch element b of a View: (s, d) -> float.
struct Head {
  View x;
  std::int64_t b, h;
  __device__ float operator()(std::int64_t s, std::int64_t d) const { return x(b, h, s, d); }
};

struct Call {
  Heads hd;  // layout 0: the outputs' index
  std::int64_t B;
  bool causal;
  float scale;
};

// Thread (b, h, i) of the grid over B*heads*S rows (heads: H or Hkv); false past the last.
__device__ bool row_of(const Call& c, std::int64_t heads, std::int64_t& b, std::int64_t& h, std::int64_t& i) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= c.B * heads * c.hd.S) return false;
  i = t % c.hd.S;
  h = (t / c.hd.S) % heads;
  b = t / (c.hd.S * heads);
  return true;
}

__global__ void forward_rows(Call c, View q, View k, View v, float* p, float* acc, DeviceOut o, DeviceOut lse) {
  std::int64_t b, h, i;
  if (!row_of(c, c.hd.H, b, h, i)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, row = (b * c.hd.H + h) * S + i, kvh = c.hd.kv_head(h);
  float* pr = p + row * S;
  float* ar = acc + row * D;
  const Partial r =
      attend(Head{q, b, h}, Head{k, b, kvh}, Head{v, b, kvh}, i, 0, visible_keys(c.causal, i, S), D, c.scale, pr, ar);
  normalise(ar, D, r.l);
  for (std::int64_t d = 0; d < D; ++d) o.store(b * S * c.hd.H * D + c.hd.col(i, h, d), ar[d]);
  lse.store(b * c.hd.H * S + c.hd.lse_col(i, h), logsumexp(r));
}

// The backward's row terms: P and dS rows in place of the scores, and dq.
__global__ void backward_rows(Call c, View q, View k, View v, View g, float* P, float* dS, float* acc, DeviceOut dq) {
  std::int64_t b, h, i;
  if (!row_of(c, c.hd.H, b, h, i)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, row = (b * c.hd.H + h) * S + i, n = visible_keys(c.causal, i, S);
  const Head hk{k, b, c.hd.kv_head(h)}, hv{v, b, c.hd.kv_head(h)};
  const Partial r = attend(Head{q, b, h}, hk, hv, i, 0, n, D, c.scale, P + row * S, acc + row * D);
  softmax_grad(hv, Head{g, b, h}, i, n, D, r, P + row * S, acc + row * D, dS + row * S);
  for (std::int64_t d = 0; d < D; ++d)
    dq.store(b * S * c.hd.H * D + c.hd.col(i, h, d), column_sum(Strip{dS + row * S, 1}, hk, 0, n, d) * c.scale);
}

// dk and dv of key j of key/value head kvh (thread (b, kvh, j)): sums over its G query heads
// and the queries of each that see key j.
__global__ void backward_keys(Call c, View q, View g, const float* P, const float* dS, DeviceOut dk, DeviceOut dv) {
  std::int64_t b, kvh, j;
  if (!row_of(c, c.hd.Hkv(), b, kvh, j)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, G = c.hd.G, first = c.causal ? j : 0;
  // Query head kvh*G + gi's column j of an S x S scratch matrix, from row `first`; its loader.
  const auto column = [&](const float* m) {
    return [=](std::int64_t gi) { return Strip{m + ((b * c.hd.H + kvh * G + gi) * S + first) * S + j, S}; };
  };
  const auto head = [&](View x) { return [=](std::int64_t gi) { return Head{x, b, kvh * G + gi}; }; };
  for (std::int64_t d = 0; d < D; ++d) {
    const std::int64_t at = b * S * c.hd.Hkv() * D + c.hd.kv().col(j, kvh, d);
    dk.store(at, group_column_sum(G, column(dS), head(q), first, S - first, d) * c.scale);
    dv.store(at, group_column_sum(G, column(P), head(g), first, S - first, d));
  }
}

Call call_of(const kernels::DeviceCall& c) {
  return {.hd = {.S = c.extent("S"),
                 .H = c.extent("Hkv") * c.extent("G"),
                 .D = c.extent("D"),
                 .G = c.extent("G"),
                 .bshd = false},
          .B = c.extent("B"),
          .causal = c.param("causal") != 0,
          .scale = c.param("scale")};
}

constexpr int kThreads = 128;
// The blocks of a grid over B*heads*S threads.
unsigned blocks(const Call& c, std::int64_t heads) {
  return static_cast<unsigned>((c.B * heads * c.hd.S + kThreads - 1) / kThreads);
}
std::size_t floats(std::int64_t n) { return static_cast<std::size_t>(n) * sizeof(float); }

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<Sdpa>(kernel_arithmetic(), [](const kernels::DeviceCall& d) {
    const Call c = call_of(d);
    const std::int64_t rows = c.B * c.hd.H * c.hd.S;
    const DeviceBuffer p(floats(rows * c.hd.S)), acc(floats(rows * c.hd.D));
    forward_rows<<<blocks(c, c.hd.H), kThreads>>>(c, d.in4("q"), d.in4("k"), d.in4("v"), p.as<float>(), acc.as<float>(),
                                                  d.out("o"), d.out("lse"));
    d.synchronize();  // before the scratch is freed
  });
}

std::unique_ptr<OpSubject> make_cuda_backward_kernel() {
  return kernels::cuda_kernel<SdpaBackward>(kernel_arithmetic(), [](const kernels::DeviceCall& d) {
    const Call c = call_of(d);
    const std::int64_t rows = c.B * c.hd.H * c.hd.S;
    const DeviceBuffer P(floats(rows * c.hd.S)), dS(floats(rows * c.hd.S)), acc(floats(rows * c.hd.D));
    backward_rows<<<blocks(c, c.hd.H), kThreads>>>(c, d.in4("q"), d.in4("k"), d.in4("v"), d.in4("do"), P.as<float>(),
                                                   dS.as<float>(), acc.as<float>(), d.out("dq"));
    backward_keys<<<blocks(c, c.hd.Hkv()), kThreads>>>(c, d.in4("q"), d.in4("do"), P.as<float>(), dS.as<float>(),
                                                       d.out("dk"), d.out("dv"));
    d.synchronize();  // before the scratch is freed
  });
}

}  // namespace parity::ops::sdpa
