// The CUDA varlen attention kernel (sdpa_varlen_op.hpp): one thread per (packed token, query
// head), each over its own sequence's keys in sdpa_kernel.cuh's PARITY_HD arithmetic (compiled with
// --fmad=false) in the host twin's order (sdpa_kernel.cuh), so every output equals the
// twin's bit for bit. Operands are packed [total, H, D] and [total, Hkv, D], read as the matrices
// of their tokens by their strides (device_operand.cuh); outputs are written contiguous
// [total, H, D] and [total, H]; scratch rows live in global memory.
#include <cstdint>
#include <vector>

#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/sdpa/sdpa_kernel.cuh>
#include <parity/subjects/builtin/cuda_memory.cuh>

namespace parity::ops::sdpa {
namespace {

using kernels::DeviceOut;
using kernels::DeviceView;
using subjects::builtin::cuda::DeviceBuffer;

// Head h of the sequence that starts at packed token `start`: (s, d) -> float.
struct PackedHead {
  DeviceView x;
  std::int64_t start, h, D;
  __device__ float operator()(std::int64_t s, std::int64_t d) const { return x(start + s, h * D + d); }
};

struct VarlenCall {
  std::int64_t total, H, G, D, S;  // S: max_seqlen, each thread's scratch
  bool causal;
  float scale;
};

// Thread (token, h): `seq` gives each token's sequence, `cu` the sequences' first tokens.
__global__ void varlen_rows(VarlenCall c, const std::int64_t* cu, const std::int64_t* seq, DeviceView q, DeviceView k,
                            DeviceView v, float* p, float* acc, DeviceOut o, DeviceOut lse) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= c.total * c.H) return;
  const std::int64_t token = t / c.H, h = t % c.H, b = seq[token], start = cu[b], length = cu[b + 1] - start,
                     i = token - start, kvh = h / c.G;
  float* ar = acc + t * c.D;
  const Partial r = attend(PackedHead{q, start, h, c.D}, PackedHead{k, start, kvh, c.D}, PackedHead{v, start, kvh, c.D},
                           i, 0, visible_keys(c.causal, i, length), c.D, c.scale, p + t * c.S, ar);
  normalise(ar, c.D, r.l);
  for (std::int64_t d = 0; d < c.D; ++d) o.store(t * c.D + d, ar[d]);
  lse.store(t, logsumexp(r));
}

constexpr int kVarlenThreads = 128;
std::size_t bytes_of(std::int64_t n, std::size_t size) { return static_cast<std::size_t>(n) * size; }

class CudaVarlen : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }
  OpOutputs run(const OpCall& call) override {
    const std::vector<std::int64_t> cu = call.cu_seqlens("S");
    const VarlenCall c{.total = cu.back(),
                       .H = call.extent("Hkv") * call.extent("G"),
                       .G = call.extent("G"),
                       .D = call.extent("D"),
                       .S = call.extent("S"),
                       .causal = call.param("causal") != 0,
                       .scale = static_cast<float>(call.param("scale"))};
    Tensor o = Tensor::zeros(call.output_dtype("o"), {c.total, c.H, c.D});
    Tensor lse = Tensor::zeros(call.output_dtype("lse"), {c.total, c.H});
    if (c.total == 0) return {{"o", std::move(o)}, {"lse", std::move(lse)}};  // a grid of no blocks is no launch
    std::vector<std::int64_t> seq;
    for (std::size_t b = 0; b + 1 < cu.size(); ++b)
      seq.insert(seq.end(), cu[b + 1] - cu[b], static_cast<std::int64_t>(b));
    DeviceBuffer d_cu(bytes_of(static_cast<std::int64_t>(cu.size()), sizeof(std::int64_t))),
        d_seq(bytes_of(c.total, sizeof(std::int64_t)));
    subjects::builtin::cuda::check(cudaMemcpy(d_cu.as<void>(), cu.data(), d_cu.bytes(), cudaMemcpyHostToDevice),
                                   "sdpa_varlen cuda", "cudaMemcpy to the device");
    subjects::builtin::cuda::check(cudaMemcpy(d_seq.as<void>(), seq.data(), d_seq.bytes(), cudaMemcpyHostToDevice),
                                   "sdpa_varlen cuda", "cudaMemcpy to the device");
    const kernels::DeviceInput q(call.input("q"), "sdpa_varlen cuda"), k(call.input("k"), "sdpa_varlen cuda"),
        v(call.input("v"), "sdpa_varlen cuda");
    const std::int64_t rows = c.total * c.H;
    DeviceBuffer p(bytes_of(rows * c.S, sizeof(float))), acc(bytes_of(rows * c.D, sizeof(float)));
    kernels::DeviceOutput d_o(o, "sdpa_varlen cuda"), d_lse(lse, "sdpa_varlen cuda");
    varlen_rows<<<static_cast<unsigned>((rows + kVarlenThreads - 1) / kVarlenThreads), kVarlenThreads>>>(
        c, d_cu.as<std::int64_t>(), d_seq.as<std::int64_t>(), q.view(), k.view(), v.view(), p.as<float>(),
        acc.as<float>(), d_o.out(), d_lse.out());
    d_o.copy_back();
    d_lse.copy_back();
    return {{"o", std::move(o)}, {"lse", std::move(lse)}};
  }
};

}  // namespace

std::unique_ptr<OpSubject> make_cuda_varlen_kernel() { return std::make_unique<CudaVarlen>(); }

}  // namespace parity::ops::sdpa
