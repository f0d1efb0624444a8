// The CUDA attention kernels: one thread per (b, h, query row) for the forward and the
// backward's row terms, one per (b, h, key) for dk and dv. All arithmetic is sdpa_arith.cuh's
// PARITY_HD code (compiled with --fmad=false) in the host twins' order, so every output equals
// the twins' bit for bit. Operands are [B, H, S, D] in their own memory order: each storage is
// copied whole and indexed by its strides; outputs are written contiguous [B, H, S, D]; scratch
// rows (scores, P, dS) live in global memory.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include <parity/core/bf16.hpp>
#include <parity/ops/sdpa/sdpa_arith.cuh>
#include <parity/ops/sdpa/sdpa_heads.hpp>
#include <parity/ops/sdpa/sdpa_subjects.hpp>
#include <parity/subjects/rlkernels/cuda_memory.cuh>

namespace parity::ops::sdpa {
namespace {

using subjects::rlkernels::cuda::DeviceBuffer;

void check(cudaError_t err, const char* call) { subjects::rlkernels::cuda::check(err, "sdpa cuda", call); }

// A [B, H, S, D] operand in device memory, f32 or bf16: element (b, h, s, d) at
// data[offset + b sb + h sh + s ss + d sd].
struct View {
  const void* data;
  bool bf16;
  std::int64_t offset, sb, sh, ss, sd;
  __device__ float operator()(std::int64_t b, std::int64_t h, std::int64_t s, std::int64_t d) const {
    const std::int64_t at = offset + b * sb + h * sh + s * ss + d * sd;
    return bf16 ? bf16_to_float(static_cast<const std::uint16_t*>(data)[at]) : static_cast<const float*>(data)[at];
  }
};

// Head h of batch element b of a View: (s, d) -> float.
struct Head {
  View x;
  std::int64_t b, h;
  __device__ float operator()(std::int64_t s, std::int64_t d) const { return x(b, h, s, d); }
};

struct Call {
  Heads hd;  // layout 0: the outputs' index
  std::int64_t B;
  bool causal, bf16_out;
  float scale;
};

__device__ void store(void* out, bool bf16, std::int64_t i, float v) {
  if (bf16) static_cast<std::uint16_t*>(out)[i] = bf16_from_float_rne(v);
  else static_cast<float*>(out)[i] = v;
}

// Thread (b, h, i) of the grid over B*H*S rows; false past the last.
__device__ bool row_of(const Call& c, std::int64_t& b, std::int64_t& h, std::int64_t& i) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= c.B * c.hd.H * c.hd.S) return false;
  i = t % c.hd.S;
  h = (t / c.hd.S) % c.hd.H;
  b = t / (c.hd.S * c.hd.H);
  return true;
}

__global__ void forward_rows(Call c, View q, View k, View v, float* p, float* acc, void* o, void* lse) {
  std::int64_t b, h, i;
  if (!row_of(c, b, h, i)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, row = (b * c.hd.H + h) * S + i;
  float* pr = p + row * S;
  float* ar = acc + row * D;
  const Partial r =
      attend(Head{q, b, h}, Head{k, b, h}, Head{v, b, h}, i, 0, visible_keys(c.causal, i, S), D, c.scale, pr, ar);
  normalise(ar, D, r.l);
  for (std::int64_t d = 0; d < D; ++d) store(o, c.bf16_out, b * S * c.hd.H * D + c.hd.col(i, h, d), ar[d]);
  store(lse, c.bf16_out, b * c.hd.H * S + c.hd.lse_col(i, h), logsumexp(r));
}

// The backward's row terms: P and dS rows in place of the scores, and dq.
__global__ void backward_rows(Call c, View q, View k, View v, View g, float* P, float* dS, float* acc, void* dq) {
  std::int64_t b, h, i;
  if (!row_of(c, b, h, i)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, row = (b * c.hd.H + h) * S + i, n = visible_keys(c.causal, i, S);
  const Head hk{k, b, h}, hv{v, b, h};
  const Partial r = attend(Head{q, b, h}, hk, hv, i, 0, n, D, c.scale, P + row * S, acc + row * D);
  softmax_grad(hv, Head{g, b, h}, i, n, D, r, P + row * S, acc + row * D, dS + row * S);
  for (std::int64_t d = 0; d < D; ++d)
    store(dq, c.bf16_out, b * S * c.hd.H * D + c.hd.col(i, h, d),
          column_sum(Strip{dS + row * S, 1}, hk, 0, n, d) * c.scale);
}

// dk and dv of key j (thread (b, h, j)): sums over the queries that see it.
__global__ void backward_keys(Call c, View q, View g, const float* P, const float* dS, void* dk, void* dv) {
  std::int64_t b, h, j;
  if (!row_of(c, b, h, j)) return;
  const std::int64_t S = c.hd.S, D = c.hd.D, head = (b * c.hd.H + h) * S * S, first = c.causal ? j : 0;
  const Head hq{q, b, h}, hg{g, b, h};
  for (std::int64_t d = 0; d < D; ++d) {
    const std::int64_t at = b * S * c.hd.H * D + c.hd.col(j, h, d);
    store(dk, c.bf16_out, at, column_sum(Strip{dS + head + first * S + j, S}, hq, first, S - first, d) * c.scale);
    store(dv, c.bf16_out, at, column_sum(Strip{P + head + first * S + j, S}, hg, first, S - first, d));
  }
}

// An input copied to the device whole, with the View that indexes it.
struct Operand {
  DeviceBuffer buffer;
  View view;
  explicit Operand(const Tensor& t) : buffer(t.storage_bytes().size()) {
    if (t.shape().size() != 4) throw std::invalid_argument("sdpa cuda: an operand that is not [B, H, S, D]");
    check(cudaMemcpy(buffer.as<void>(), t.storage_bytes().data(), t.storage_bytes().size(), cudaMemcpyHostToDevice),
          "cudaMemcpy input");
    const auto& s = t.strides();
    view = {buffer.as<void>(), t.dtype() == DType::bf16, t.offset(), s[0], s[1], s[2], s[3]};
  }
};

Call call_of(const OpCall& c, DType out) {
  return {.hd = {.S = c.extent("S"), .H = c.extent("H"), .D = c.extent("D"), .bshd = false},
          .B = c.extent("B"),
          .causal = c.param("causal") != 0,
          .bf16_out = out == DType::bf16,
          .scale = static_cast<float>(c.param("scale"))};
}

constexpr int kThreads = 128;
unsigned blocks(const Call& c) { return static_cast<unsigned>((c.B * c.hd.H * c.hd.S + kThreads - 1) / kThreads); }
std::size_t floats(std::int64_t n) { return static_cast<std::size_t>(n) * sizeof(float); }

void fetch(Tensor& t, const DeviceBuffer& from) {
  check(cudaMemcpy(t.storage_bytes().data(), from.as<void>(), t.storage_bytes().size(), cudaMemcpyDeviceToHost),
        "cudaMemcpy output");
}

class CudaForward : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }
  OpOutputs run(const OpCall& call) override {
    const Call c = call_of(call, call.output_dtype("o"));
    const std::int64_t rows = c.B * c.hd.H * c.hd.S;
    Tensor o = Tensor::zeros(call.output_dtype("o"), {c.B, c.hd.H, c.hd.S, c.hd.D});
    Tensor lse = Tensor::zeros(call.output_dtype("lse"), {c.B, c.hd.H, c.hd.S});
    const Operand q(call.input("q")), k(call.input("k")), v(call.input("v"));
    DeviceBuffer p(floats(rows * c.hd.S)), acc(floats(rows * c.hd.D)), dO(o.storage_bytes().size()),
        dL(lse.storage_bytes().size());
    forward_rows<<<blocks(c), kThreads>>>(c, q.view, k.view, v.view, p.as<float>(), acc.as<float>(), dO.as<void>(),
                                          dL.as<void>());
    check(cudaGetLastError(), "forward_rows launch");
    fetch(o, dO);
    fetch(lse, dL);
    return {{"o", std::move(o)}, {"lse", std::move(lse)}};
  }
};

class CudaBackward : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }
  OpOutputs run(const OpCall& call) override {
    const Call c = call_of(call, call.output_dtype("dq"));
    const std::int64_t rows = c.B * c.hd.H * c.hd.S;
    OpOutputs out;
    for (const char* name : {"dq", "dk", "dv"})
      out[name] = Tensor::zeros(call.output_dtype(name), {c.B, c.hd.H, c.hd.S, c.hd.D});
    const Operand q(call.input("q")), k(call.input("k")), v(call.input("v")), g(call.input("do"));
    const std::size_t bytes = out["dq"].storage_bytes().size();
    DeviceBuffer P(floats(rows * c.hd.S)), dS(floats(rows * c.hd.S)), acc(floats(rows * c.hd.D)), dq(bytes), dk(bytes),
        dv(bytes);
    backward_rows<<<blocks(c), kThreads>>>(c, q.view, k.view, v.view, g.view, P.as<float>(), dS.as<float>(),
                                           acc.as<float>(), dq.as<void>());
    check(cudaGetLastError(), "backward_rows launch");
    backward_keys<<<blocks(c), kThreads>>>(c, q.view, g.view, P.as<float>(), dS.as<float>(), dk.as<void>(),
                                           dv.as<void>());
    check(cudaGetLastError(), "backward_keys launch");
    fetch(out["dq"], dq);
    fetch(out["dk"], dk);
    fetch(out["dv"], dv);
    return out;
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_kernel() { return std::make_unique<CudaForward>(); }
std::unique_ptr<OpSubject> make_cuda_backward_kernel() { return std::make_unique<CudaBackward>(); }

}  // namespace parity::ops::sdpa
