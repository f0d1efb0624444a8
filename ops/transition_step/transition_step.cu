// The CUDA transition kernels, sampling (transition_step) and scoring (transition_score). All
// arithmetic is transition_step_kernel.cuh's (compiled with --fmad=false), so the outputs equal the
// host twins' bit for bit. The rows' coefficients are computed on the host by the twins' own code
// (rows_of) and copied to the device. step_elements runs one thread per element: mean, prev
// (sampling) and the log-prob term, written contiguously as [B, n]. reduce_rows runs one block of
// 256 threads per row and reproduces the twin's fixed order: thread l sums terms l, l + 256, ...
// ascending from 0.0f, the lane sums are folded pairwise (stride 128, 64, ..., 1, as fold_lanes
// does), and thread 0 divides by n (row_mean) and writes the row's std.
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <parity/ops/kernels/device_call.cuh>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::ops::transition_step {
namespace {

using std::int64_t;
using subjects::builtin::cuda::DeviceBuffer;

constexpr int kElementThreads = 256;            // threads per block of step_elements
constexpr int64_t kMaxElementBlocks = 1 << 20;  // step_elements strides over larger inputs

static_assert(arith::kLanes == 256, "reduce_rows folds 256 lanes");
static_assert(std::is_trivially_copyable_v<arith::Row>, "rows are copied to the device");

// Elementwise: mean, then (sampling) prev = mean + noise eps, or (scoring) the given prev, and the
// log-prob term. `given` is eps when kSample, else prev.
template <bool kSample>
__global__ void __launch_bounds__(kElementThreads)
    step_elements(const arith::Row* rows, kernels::DeviceView x, kernels::DeviceView v, kernels::DeviceView given,
                  int64_t B, int64_t n, kernels::DeviceOut mean, kernels::DeviceOut prev, float* terms) {
  const int64_t total = B * n;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t at = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; at < total; at += stride) {
    const int64_t b = at / n, i = at % n;
    const arith::Row r = rows[b];
    const float m = arith::mean_element(r, x(b, i), v(b, i));
    if constexpr (kSample) {
      const float p = arith::prev_element(r, m, given(b, i));
      mean.store(at, m);
      prev.store(at, p);
      terms[at] = arith::logp_term(r, p, m);
    } else {
      terms[at] = arith::logp_term(r, given(b, i), m);
    }
  }
}

// Row b's log-prob from its n terms ([B][n] row-major) in the fixed order; with kSample its std too.
template <bool kSample>
__global__ void __launch_bounds__(arith::kLanes) reduce_rows(const arith::Row* rows, const float* terms, int64_t n,
                                                             kernels::DeviceOut logp, kernels::DeviceOut std) {
  __shared__ float lanes[arith::kLanes];
  const int l = threadIdx.x;
  const float* t = terms + static_cast<int64_t>(blockIdx.x) * n;
  float lane = 0.0f;
  for (int64_t i = l; i < n; i += arith::kLanes) lane = lane + t[i];
  lanes[l] = lane;
  __syncthreads();
  // arith::fold_lanes, one level at a time: at each level lanes [stride, 2 stride) are only read,
  // lanes [0, stride) only written, so the sequential loop and this agree.
  for (int stride = arith::kLanes / 2; stride >= 1; stride /= 2) {
    if (l < stride) lanes[l] = lanes[l] + lanes[l + stride];
    __syncthreads();
  }
  if (l != 0) return;
  logp.store(blockIdx.x, arith::row_mean(lanes[0], n));
  if constexpr (kSample) std.store(blockIdx.x, rows[blockIdx.x].std);
}

unsigned element_blocks(int64_t elements) {
  const int64_t blocks = (elements + kElementThreads - 1) / kElementThreads;
  return static_cast<unsigned>(blocks < kMaxElementBlocks ? blocks : kMaxElementBlocks);
}

// Both kernels over the call's rows at their coefficients `host_rows`: `given` is eps (sampling)
// or prev (scoring).
template <bool kSample>
void launch_rows(const kernels::DeviceCall& d, const std::vector<arith::Row>& host_rows) {
  const int64_t B = d.extent("B"), n = d.extent("n");
  const DeviceBuffer rows(host_rows.size() * sizeof(arith::Row)),
      terms(static_cast<std::size_t>(B * n) * sizeof(float));
  subjects::builtin::cuda::check(cudaMemcpy(rows.as<void>(), host_rows.data(), rows.bytes(), cudaMemcpyHostToDevice),
                                 "transition cuda", "cudaMemcpy (rows to the device)");
  const kernels::DeviceOut none{nullptr, DType::f32};
  step_elements<kSample><<<element_blocks(B * n), kElementThreads>>>(
      rows.as<const arith::Row>(), d.in("x"), d.in("v"), d.in(kSample ? "eps" : "prev"), B, n,
      kSample ? d.out("mean") : none, kSample ? d.out("prev") : none, terms.as<float>());
  reduce_rows<kSample><<<kernels::blocks(B), arith::kLanes>>>(rows.as<const arith::Row>(), terms.as<const float>(), n,
                                                              d.out("logp"), kSample ? d.out("std") : none);
  d.synchronize();  // before the scratch is freed
}

// The op's call: each row stepping by the call's step.
template <bool kSample>
void launch(const kernels::DeviceCall& d) {
  launch_rows<kSample>(d, rows_of(d.call(), &standard_row));
}

}  // namespace

OpOutputs cuda_row_step(const RowStep& s) {
  static const OpDecl decl = TransitionStep::declaration();
  const std::vector<arith::Row> rows = rows_at(s);
  const OpCall call = row_step_call(s);
  kernels::DeviceCall d(decl, call);
  if (!d.empty()) launch_rows<true>(d, rows);
  return std::move(d).take_outputs();
}

std::unique_ptr<OpSubject> make_cuda_kernel() {
  return kernels::cuda_kernel<TransitionStep>(declared_arithmetic(), &launch<true>);
}

std::unique_ptr<OpSubject> make_score_cuda_kernel() {
  return kernels::cuda_kernel<TransitionScore>(declared_arithmetic(), &launch<false>);
}

}  // namespace parity::ops::transition_step
