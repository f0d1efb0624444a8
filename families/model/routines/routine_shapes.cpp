#include <parity/families/model/routines/routine_shapes.hpp>

#include <string>

namespace parity::model {
namespace {

// The attention weights at operands first+0..first+5 (wq, wk, wv, wo, norm_q, norm_k) for width
// D, and the rope tables' half-width `half` against the head size.
void attention_weights(ShapeRules& r, std::size_t first, std::int64_t D, std::int64_t half) {
  for (std::size_t i = 0; i < 4; ++i) r.need_shape(first + i, "attention weight " + std::to_string(i), {D, D});
  if (!r.need(r.rank(first + 4) == 1 && r.rank(first + 5) == 1, "norm_q and norm_k must be vectors")) return;
  const std::int64_t Dh = r.dim(first + 4, 0);
  r.need(Dh >= 1 && D % Dh == 0,
         "the head size len(norm_q) = " + std::to_string(Dh) + " must divide the width " + std::to_string(D));
  r.need_shape(first + 5, "norm_k", {Dh});
  r.need(2 * half <= Dh,
         "the rope tables rotate " + std::to_string(2 * half) + " dims of a " + std::to_string(Dh) + "-dim head");
}

void ff_weights(ShapeRules& r, std::size_t first, std::int64_t D) {
  if (!r.need(r.rank(first) == 2, "w1 must be a matrix")) return;
  const std::int64_t F = r.dim(first, 0);
  r.need_shape(first, "w1", {F, D});
  r.need_shape(first + 1, "w3", {F, D});
  r.need_shape(first + 2, "w2", {D, F});
}

}  // namespace

void linear_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) >= 2 && r.rank(1) == 2, "x must have rank >= 2 and W rank 2")) return;
  r.need(r.shape(0).back() == r.dim(1, 1),
         "x's last dim " + std::to_string(r.shape(0).back()) + " is not W's K " + std::to_string(r.dim(1, 1)));
  r.need_shape(2, "b", {r.dim(1, 0)});
}

void attention_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) == 3 && r.rank(7) == 2, "h must be [B, T, D] and cos [T, R/2]")) return;
  const std::int64_t T = r.dim(0, 1), D = r.dim(0, 2), half = r.dim(7, 1);
  r.need(r.dim(7, 0) == T,
         "the rope tables have " + std::to_string(r.dim(7, 0)) + " rows for " + std::to_string(T) + " tokens");
  r.need_shape(8, "sin", r.shape(7));
  attention_weights(r, 1, D, half);
}

void feed_forward_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) >= 2, "h must have rank >= 2")) return;
  ff_weights(r, 1, r.shape(0).back());
}

void refiner_shapes(ShapeRules& r) {
  if (!r.need(r.operands() >= 3 && (r.operands() - 3) % 11 == 0, "c, cos, sin and 11 operands per block")) return;
  if (!r.need(r.rank(0) == 3 && r.rank(1) == 2, "c must be [B, T, D] and cos [T, R/2]")) return;
  const std::int64_t T = r.dim(0, 1), D = r.dim(0, 2), half = r.dim(1, 1);
  r.need(r.dim(1, 0) == T, "the rope tables do not have one row per text token");
  r.need_shape(2, "sin", r.shape(1));
  for (std::size_t f = 3; f < r.operands(); f += 11) {
    r.need_shape(f, "norm1", {D});
    attention_weights(r, f + 1, D, half);
    r.need_shape(f + 7, "norm2", {D});
    ff_weights(r, f + 8, D);
  }
}

void transition_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) == 2, "x must be [B, n]")) return;
  r.need_shape(1, "v", r.shape(0));
  r.need_shape(2, "eps", r.shape(0));
  r.need_shape(3, "sigma", {r.dim(0, 0)});
  r.need_shape(4, "sigma_prev", {r.dim(0, 0)});
}

void timestep_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) == 1 && r.rank(1) == 2, "t must be [B] and W1 [D, F]")) return;
  const std::int64_t D = r.dim(1, 0), F = r.dim(1, 1);
  r.need(F >= 2 && F % 2 == 0, "W1 must take an even number of sinusoidal features");
  r.need_shape(2, "b1", {D});
  r.need_shape(3, "W2", {D, D});
  r.need_shape(4, "b2", {D});
}

void modulation_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) == 2 && r.rank(1) == 2, "temb must be [B, D] and W [K, D]")) return;
  r.need(r.dim(1, 1) == r.dim(0, 1),
         "W takes " + std::to_string(r.dim(1, 1)) + " features, temb has " + std::to_string(r.dim(0, 1)));
  r.need_shape(2, "b", {r.dim(1, 0)});
}

void norm_out_shapes(ShapeRules& r) {
  if (!r.need(r.rank(0) == 3, "x must be [B, T, D]")) return;
  const std::int64_t B = r.dim(0, 0), D = r.dim(0, 2);
  r.need_shape(1, "temb", {B, D});
  r.need_shape(2, "W", {2 * D, D});
  r.need_shape(3, "b", {2 * D});
}

}  // namespace parity::model
