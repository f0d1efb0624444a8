#include <parity/subjects/lora_family.hpp>

#include <parity/core/error.hpp>
#include <parity/subjects/subject_registry_impl.hpp>

namespace parity::subjects {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError("lora inputs: " + what);
}

void require_2d(const Tensor& t, const char* name, DType dtype) {
  require(t.shape().size() == 2, std::string(name) + " must be 2-D");
  require(t.dtype() == dtype, std::string(name) + " must be " + std::string(dtype_name(dtype)));
  require(t.dim(0) > 0 && t.dim(1) > 0, std::string(name) + " has a zero extent");
}

}  // namespace

void validate_lora_inputs(const LoraInputs& in) {
  require_2d(in.x, "x", DType::bf16);
  require_2d(in.W, "W", DType::bf16);
  require_2d(in.A, "A", DType::f32);
  require_2d(in.B, "B", DType::f32);
  require(in.W.dim(1) == in.x.dim(1), "W is [N, K] and x is [T, K]: K differs");
  require(in.A.dim(1) == in.x.dim(1), "A is [r, K] and x is [T, K]: K differs");
  require(in.B.dim(0) == in.W.dim(0), "B is [N, r] and W is [N, K]: N differs");
  require(in.B.dim(1) == in.A.dim(0), "B is [N, r] and A is [r, K]: r differs");
}

void validate_lora_dy(const LoraInputs& in, const Tensor& dy) {
  require_2d(dy, "dy", DType::bf16);
  require(dy.dim(0) == in.x.dim(0) && dy.dim(1) == in.W.dim(0), "dy must be [T, N]");
}

template class SubjectRegistry<LoraSubject>;

}  // namespace parity::subjects
