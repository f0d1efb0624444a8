#include <parity/subjects/transition_family.hpp>

#include <parity/core/error.hpp>
#include <parity/subjects/subject_registry_impl.hpp>

namespace parity::subjects {
namespace {

void require_transition_input(bool ok, const std::string& what) {
  if (!ok) throw InputError("transition inputs: " + what);
}

}  // namespace

template class SubjectRegistry<TransitionSubject>;

void validate_transition_inputs(const TransitionInputs& in) {
  require_transition_input(in.x.shape().size() == 2, "x must be 2-D [B, n]");
  require_transition_input(in.x.dim(0) > 0 && in.x.dim(1) > 0, "x has a zero extent");
  require_transition_input(in.x.dtype() != DType::f64, "x must be f32 or bf16");
  require_transition_input(in.v.shape() == in.x.shape(), "v must have x's shape");
  require_transition_input(in.v.dtype() != DType::f64, "v must be f32 or bf16");
  require_transition_input(in.eps.shape() == in.x.shape(), "eps must have x's shape");
  require_transition_input(in.eps.dtype() == DType::f32, "eps must be f32");
  const auto B = static_cast<std::size_t>(in.x.dim(0));
  require_transition_input(in.sigma.size() == B, "sigma needs one value per row");
  require_transition_input(in.sigma_prev.size() == B, "sigma_prev needs one value per row");
}

void validate_transition_prev(const TransitionInputs& in, const Tensor& prev) {
  require_transition_input(prev.shape() == in.x.shape(), "prev must have x's shape");
  require_transition_input(prev.dtype() == DType::f32, "prev must be f32");
}

}  // namespace parity::subjects
