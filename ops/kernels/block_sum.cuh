#pragma once
// The fold of lane_sum.cuh on the device (compiled by nvcc only): a block of kLanes threads,
// thread l holding its lane's sum, folds the lanes pairwise in the host twins' order
// (host_lane_sum's), so the total is theirs bit for bit.
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::kernels {

// The block's lane sums (thread l's `mine`, in the kLanes floats of shared memory `lanes`)
// folded into lanes[0], which every thread returns. All kLanes threads must call it; `lanes`
// may be reused on return.
__device__ inline float block_sum(float* lanes, float mine, int l) {
  lanes[l] = mine;
  __syncthreads();
  for (int stride = kLanes / 2; stride >= 1; stride /= 2) {
    if (l < stride) fold_level(lanes, stride, l);
    __syncthreads();
  }
  const float total = lanes[0];
  __syncthreads();  // lanes is reused by the next sum
  return total;
}

}  // namespace parity::ops::kernels
