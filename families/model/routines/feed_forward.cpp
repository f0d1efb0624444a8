#include <parity/families/model/routines/feed_forward.hpp>

#include <stdexcept>

namespace parity::model {
namespace {

// [W1; W3]: the rows of W1, then those of W3 (one dtype, same columns).
Tensor stacked(const Tensor& W1, const Tensor& W3) {
  if (W1.shape().size() != 2 || W3.shape() != W1.shape() || W3.dtype() != W1.dtype())
    throw std::logic_error("swiglu feed-forward: W1 and W3 differ in shape or dtype");
  const Tensor a = W1.contiguous(), b = W3.contiguous();
  Tensor out = Tensor::zeros(a.dtype(), {2 * a.dim(0), a.dim(1)});
  for (std::int64_t i = 0; i < a.numel(); ++i) out.set_bits(i, a.bits_at(i));
  for (std::int64_t i = 0; i < b.numel(); ++i) out.set_bits(a.numel() + i, b.bits_at(i));
  return out;
}

}  // namespace

Tensor swiglu_forward(const Primitives& p, const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2) {
  const Tensor ag = p.linear_forward(h, stacked(W1, W3), nullptr);
  return p.linear_forward(p.swiglu_gate(ag), W2, nullptr);
}

Tensor swiglu_backward_input(const Primitives& p, const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2,
                             const Tensor& d_out) {
  const Tensor W13 = stacked(W1, W3);
  const Tensor ag = p.linear_forward(h, W13, nullptr);
  const Tensor du = p.linear_backward_input(d_out, W2);
  return p.linear_backward_input(p.swiglu_gate_backward(ag, du), W13);
}

}  // namespace parity::model
