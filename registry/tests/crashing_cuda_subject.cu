// A CUDA subject of rms_norm that writes out of bounds on the device when T >= 16, as a kernel
// with a bad index does: the store faults (cudaErrorIllegalAddress), after which the process's
// CUDA context is lost. Below T = 16 it computes rms_norm as parity's host twin does. Linked with
// crashing_subjects.cpp into the property main where CUDA builds (supervised_worker_gpu_test.sh):
// parity reports a device fault, shrinks it to T = 16 in fresh workers, and replays it to the same
// kind.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include <parity/ops/op_families.hpp>
#include <parity/ops/register_op.hpp>
#include <parity/subjects/builtin/cuda_device.hpp>

namespace {

using parity::ops::OpCall;
using parity::ops::OpOutputs;
using parity::ops::OpSubject;
using parity::ops::OpSubjectInfo;

// Stores one float `stride` floats past the end of a one-float buffer.
__global__ void store_out_of_bounds(float* buffer, std::uint64_t stride) { buffer[stride] = 1.0f; }

void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("crash-cuda-oob: ") + call + ": " + cudaGetErrorString(e));
}

class OutOfBoundsRmsNorm : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    if (call.input("x").dim(0) >= 16) {
      float* buffer = nullptr;
      check(cudaMalloc(&buffer, sizeof(float)), "cudaMalloc");
      store_out_of_bounds<<<1, 1>>>(buffer, std::uint64_t{1} << 40);  // 4 TiB past it: unmapped
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      cudaFree(buffer);
    }
    return twin_->run(call);
  }

 private:
  std::unique_ptr<OpSubject> twin_ = parity::ops::find_op_family("rms_norm").runnable("parity-host").make();
};

}  // namespace

PARITY_REGISTER_OP_SUBJECT(crash_cuda_oob, "rms_norm",
                           OpSubjectInfo{.name = "crash-cuda-oob",
                                         .backend = "cuda",
                                         .description = "writes out of bounds on the device when T >= 16",
                                         .unavailable_reason = parity::subjects::builtin::cuda_unavailable_reason,
                                         .make = &parity::ops::make_op_subject<OutOfBoundsRmsNorm>});
