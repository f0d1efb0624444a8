#pragma once
// LibTorch's own dense matmul on the CPU (or its CUDA build's cuBLAS on the first CUDA device),
// as a speed yardstick for the benchmarks (bench/):
// the host twin and the oracles are reported beside it at the same shape, in the same run.
// Not a subject: it computes nothing parity compares. Plain header: callers need no LibTorch
// include.
#include <cstdint>
#include <memory>

#include <parity/core/dtype.hpp>

namespace parity::subjects::torch_impl {

class MatmulBaseline {
 public:
  // Allocates a [M, K] and a [K, N] operand of `dtype` (f64, f32 or bf16), drawn once from N(0, 1)
  // by LibTorch's CPU generator seeded with `seed` (drawn in float64, then rounded to the
  // dtype), and a [M, N] output; with on_cuda all three live on the first CUDA device. Throws
  // InputError for an extent < 1 and for on_cuda without a usable CUDA LibTorch.
  MatmulBaseline(std::int64_t M, std::int64_t N, std::int64_t K, DType dtype, std::uint64_t seed = 20261129,
                 bool on_cuda = false);
  ~MatmulBaseline();
  MatmulBaseline(const MatmulBaseline&) = delete;
  MatmulBaseline& operator=(const MatmulBaseline&) = delete;

  // One at::mm_out of the operands into the output (no allocation): 2*M*N*K flops. On CUDA it
  // returns once the product is done (the device is synchronised).
  void run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// LibTorch's intra-op thread count (at::get_num_threads), and a way to change it; set it
// before the first parallel operation of the process.
int torch_intra_op_threads();
void set_torch_intra_op_threads(int threads);

}  // namespace parity::subjects::torch_impl
