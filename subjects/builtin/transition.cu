// The CUDA transition kernel: the flow-matching SDE (or CPS) step with its log-prob. All
// arithmetic is transition_arith.cuh's PARITY_HD code (this file is compiled with
// --fmad=false), so the results equal the host twin's (TransitionHostTwin<StandardStep>) bit
// for bit.
//
// The per-row coefficients (transition::Row) are computed on the host by StandardStep::row,
// the twin's own code, and copied to the device. Kernel 1 (step_elements) runs one thread per
// element: mean, prev (sampling) and the log-prob term, written contiguously as [B, n].
// Kernel 2 (reduce_rows) runs one block of transition::kLanes threads per row and reproduces
// the twin's fixed reduction order exactly: thread l sums terms l, l + 256, ... ascending from
// 0.0f, the lane sums are folded pairwise (stride 128, 64, ..., 1, as fold_lanes does), and
// thread 0 divides by n (row_mean). The order depends on n alone, never on B or the grid.
// Operands stay in their own layouts: each storage is copied whole and indexed by strides.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/hd.hpp>
#include <parity/subjects/builtin/cuda_memory.cuh>
#include <parity/subjects/builtin/transition_arith.cuh>
#include <parity/subjects/builtin/transition_cuda.hpp>
#include <parity/subjects/builtin/transition_host.hpp>  // StandardStep::row
#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::builtin {
namespace {

using std::int64_t;
using std::uint16_t;

constexpr int kElementThreads = 256;            // threads per block of step_elements
constexpr int64_t kMaxElementBlocks = 1 << 20;  // step_elements strides over larger inputs
constexpr int64_t kMaxGridX = 2147483647;       // reduce_rows: one block per row

static_assert(transition::kLanes == 256, "reduce_rows folds 256 lanes");
static_assert(std::is_trivially_copyable_v<transition::Row>, "rows are copied to the device");

void check(cudaError_t err, const char* call) { cuda::check(err, "transition cuda", call); }

// A 2-D operand in device memory, f32 or bf16: element (b, i) at data[offset + b s0 + i s1].
struct View {
  const void* data;
  bool bf16;
  int64_t offset, s0, s1;
  __device__ float operator()(int64_t b, int64_t i) const {
    const int64_t at = offset + b * s0 + i * s1;
    return bf16 ? bf16_to_float(static_cast<const uint16_t*>(data)[at]) : static_cast<const float*>(data)[at];
  }
};

// Elementwise: mean, then (sampling) prev = mean + noise eps, or (scoring) the given prev,
// and the log-prob term. `given` is eps when kSample, else prev.
template <bool kSample>
__global__ void __launch_bounds__(kElementThreads)
    step_elements(const transition::Row* rows, View x, View v, View given, int64_t B, int64_t n, float* mean_out,
                  float* prev_out, float* terms) {
  const int64_t total = B * n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t at = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; at < total; at += step) {
    const int64_t b = at / n, i = at % n;
    const transition::Row r = rows[b];
    const float m = transition::mean_element(r, x(b, i), v(b, i));
    if constexpr (kSample) {
      const float p = transition::prev_element(r, m, given(b, i));
      mean_out[at] = m;
      prev_out[at] = p;
      terms[at] = transition::logp_term(r, p, m);
    } else {
      terms[at] = transition::logp_term(r, given(b, i), m);
    }
  }
}

// Row b's log-prob from its n terms (terms is [B][n] row-major), in the fixed order.
__global__ void __launch_bounds__(transition::kLanes) reduce_rows(const float* terms, int64_t n, float* logp) {
  __shared__ float lanes[transition::kLanes];
  const int l = threadIdx.x;
  const float* t = terms + static_cast<int64_t>(blockIdx.x) * n;
  float lane = 0.0f;
  for (int64_t i = l; i < n; i += transition::kLanes) lane = lane + t[i];
  lanes[l] = lane;
  __syncthreads();
  // transition::fold_lanes, one level at a time: at each level lanes [stride, 2 stride) are
  // only read, lanes [0, stride) only written, so the sequential loop and this agree.
  for (int stride = transition::kLanes / 2; stride >= 1; stride /= 2) {
    if (l < stride) lanes[l] = lanes[l] + lanes[l + stride];
    __syncthreads();
  }
  if (l == 0) logp[blockIdx.x] = transition::row_mean(lanes[0], n);
}

using cuda::DeviceBuffer;

// A 2-D Tensor's whole storage on the device, with its layout.
struct DeviceOperand {
  explicit DeviceOperand(const Tensor& t)
      : buffer(t.storage_bytes().size()),
        bf16(t.dtype() == DType::bf16),
        offset(t.offset()),
        s0(t.strides()[0]),
        s1(t.strides()[1]) {
    check(cudaMemcpy(buffer.as<void>(), t.storage_bytes().data(), buffer.bytes(), cudaMemcpyHostToDevice),
          "cudaMemcpy (operand to device)");
  }
  View view() const { return {buffer.as<const void>(), bf16, offset, s0, s1}; }

  DeviceBuffer buffer;
  bool bf16;
  int64_t offset, s0, s1;
};

DeviceBuffer device_floats(int64_t elements) {
  return DeviceBuffer(static_cast<std::size_t>(elements) * sizeof(float));
}

// The rows' coefficients, computed on the host by the twin's own code.
std::vector<transition::Row> host_rows(const TransitionInputs& in) {
  std::vector<transition::Row> rows(static_cast<std::size_t>(in.x.dim(0)));
  for (std::size_t b = 0; b < rows.size(); ++b) rows[b] = StandardStep::row(in, static_cast<int64_t>(b));
  return rows;
}

// The rows on the device.
struct DeviceRows {
  explicit DeviceRows(const std::vector<transition::Row>& rows) : buffer(rows.size() * sizeof(transition::Row)) {
    check(cudaMemcpy(buffer.as<void>(), rows.data(), buffer.bytes(), cudaMemcpyHostToDevice),
          "cudaMemcpy (rows to device)");
  }
  const transition::Row* data() const { return buffer.as<const transition::Row>(); }

  DeviceBuffer buffer;
};

// Waits for the kernels and copies a contiguous f32 result into a fresh Tensor's storage.
Tensor fetch(const DeviceBuffer& from, std::vector<int64_t> shape) {
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (transition kernels)");
  Tensor out = Tensor::zeros(DType::f32, std::move(shape));
  check(cudaMemcpy(out.storage_bytes().data(), from.as<void>(), out.storage_bytes().size(), cudaMemcpyDeviceToHost),
        "cudaMemcpy (result to host)");
  return out;
}

unsigned element_blocks(int64_t elements) {
  const int64_t blocks = (elements + kElementThreads - 1) / kElementThreads;
  return static_cast<unsigned>(blocks < kMaxElementBlocks ? blocks : kMaxElementBlocks);
}

// Kernel 2 over B rows into logp ([B] f32 on the device).
void launch_reduce(const DeviceBuffer& terms, int64_t B, int64_t n, const DeviceBuffer& logp) {
  if (B > kMaxGridX)
    throw std::runtime_error("transition cuda: reduce_rows: " + std::to_string(B) + " rows exceed the grid");
  reduce_rows<<<static_cast<unsigned>(B), transition::kLanes>>>(terms.as<const float>(), n, logp.as<float>());
  check(cudaGetLastError(), "reduce_rows<<<>>>");
}

class TransitionCudaKernel : public TransitionSubject {
 public:
  TransitionAccuracyContract accuracy_contract() const override {
    return {TransitionAccuracyContract::SumOrder::fixed_256_lane_tree, 0.5};
  }

  TransitionOutputs sample(const TransitionInputs& in) override {
    validate_transition_inputs(in);
    const int64_t B = in.x.dim(0), n = in.x.dim(1);
    const std::vector<transition::Row> rows = host_rows(in);
    const DeviceRows d_rows(rows);
    const DeviceOperand x(in.x), v(in.v), eps(in.eps);
    const DeviceBuffer mean = device_floats(B * n), prev = device_floats(B * n);
    const DeviceBuffer terms = device_floats(B * n), logp = device_floats(B);
    step_elements<true><<<element_blocks(B * n), kElementThreads>>>(
        d_rows.data(), x.view(), v.view(), eps.view(), B, n, mean.as<float>(), prev.as<float>(), terms.as<float>());
    check(cudaGetLastError(), "step_elements<sample><<<>>>");
    launch_reduce(terms, B, n, logp);
    TransitionOutputs out;
    out.prev = fetch(prev, {B, n});
    out.mean = fetch(mean, {B, n});
    out.logp = fetch(logp, {B});
    out.std = Tensor::zeros(DType::f32, {B});
    for (int64_t b = 0; b < B; ++b) out.std.set_value(b, rows[static_cast<std::size_t>(b)].std);
    return out;
  }

  Tensor score(const TransitionInputs& in, const Tensor& prev) override {
    validate_transition_inputs(in);
    validate_transition_prev(in, prev);
    const int64_t B = in.x.dim(0), n = in.x.dim(1);
    const DeviceRows d_rows(host_rows(in));
    const DeviceOperand x(in.x), v(in.v), given(prev);
    const DeviceBuffer terms = device_floats(B * n), logp = device_floats(B);
    step_elements<false><<<element_blocks(B * n), kElementThreads>>>(d_rows.data(), x.view(), v.view(), given.view(), B,
                                                                     n, nullptr, nullptr, terms.as<float>());
    check(cudaGetLastError(), "step_elements<score><<<>>>");
    launch_reduce(terms, B, n, logp);
    return fetch(logp, {B});
  }
};

}  // namespace

std::unique_ptr<TransitionSubject> make_transition_cuda_kernel() { return std::make_unique<TransitionCudaKernel>(); }

}  // namespace parity::subjects::builtin
