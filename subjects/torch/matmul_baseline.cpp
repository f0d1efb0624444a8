#include <parity/subjects/torch/matmul_baseline.hpp>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>
#include <torch/cuda.h>

#include <string>

#include <parity/core/error.hpp>

namespace parity::subjects::torch_impl {

struct MatmulBaseline::Impl {
  at::Tensor a, b, out;
  bool on_cuda = false;
};

MatmulBaseline::MatmulBaseline(std::int64_t M, std::int64_t N, std::int64_t K, DType dtype, std::uint64_t seed,
                               bool on_cuda) {
  if (M < 1 || N < 1 || K < 1)
    throw InputError("MatmulBaseline: extents must be >= 1, got M=" + std::to_string(M) + " N=" + std::to_string(N) +
                     " K=" + std::to_string(K));
  const at::ScalarType type = dtype == DType::f64 ? at::kDouble : dtype == DType::f32 ? at::kFloat : at::kBFloat16;
  if (on_cuda && !::torch::cuda::is_available())
    throw InputError("MatmulBaseline: on_cuda, but LibTorch has no CUDA device (or no CUDA build)");
  const at::Device device = on_cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  impl_.reset(new Impl{at::randn({M, K}, gen, f64).to(device, type), at::randn({K, N}, gen, f64).to(device, type),
                       at::empty({M, N}, at::TensorOptions().dtype(type).device(device)), on_cuda});
}

MatmulBaseline::~MatmulBaseline() = default;

void MatmulBaseline::run() {
  at::mm_out(impl_->out, impl_->a, impl_->b);
  if (impl_->on_cuda) ::torch::cuda::synchronize();
}

int torch_intra_op_threads() { return at::get_num_threads(); }

void set_torch_intra_op_threads(int threads) { at::set_num_threads(threads); }

}  // namespace parity::subjects::torch_impl
