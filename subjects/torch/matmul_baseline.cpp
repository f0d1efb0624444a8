#include "subjects/torch/matmul_baseline.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>

#include <string>

#include "core/error.hpp"

namespace parity::subjects::torch_impl {

struct MatmulBaseline::Impl {
  at::Tensor a, b, out;
};

MatmulBaseline::MatmulBaseline(std::int64_t M, std::int64_t N, std::int64_t K, DType dtype,
                               std::uint64_t seed) {
  if (M < 1 || N < 1 || K < 1)
    throw InputError("MatmulBaseline: extents must be >= 1, got M=" + std::to_string(M) +
                     " N=" + std::to_string(N) + " K=" + std::to_string(K));
  at::ScalarType type;
  switch (dtype) {
    case DType::f64: type = at::kDouble; break;
    case DType::bf16: type = at::kBFloat16; break;
    default: throw InputError("MatmulBaseline: dtype must be f64 or bf16");
  }
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  impl_.reset(new Impl{at::randn({M, K}, gen, f64).to(type), at::randn({K, N}, gen, f64).to(type),
                       at::empty({M, N}, at::TensorOptions().dtype(type))});
}

MatmulBaseline::~MatmulBaseline() = default;

void MatmulBaseline::run() { at::mm_out(impl_->out, impl_->a, impl_->b); }

int torch_intra_op_threads() { return at::get_num_threads(); }

void set_torch_intra_op_threads(int threads) { at::set_num_threads(threads); }

}  // namespace parity::subjects::torch_impl
