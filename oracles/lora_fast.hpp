#pragma once
// The fast accurate LoRA oracle (docs/math.md, "LoRA linear", "Accurate oracles"): every element of
// y, and with G of dx, dA and dB, by Dot2 (oracles/dot2_kernels.hpp), vectorised, blocked and
// parallel (PARITY_THREADS; the same bits with any thread count). Each Estimate carries the
// same kernel-side fields as LoraOracle<Real>'s (abs_sum, peak, underflow: the bounds of the
// kernel under test) and, in oracle_err, a rigorous bound on |value - exact|: Dot2's own
// bound (oracles/dot2.hpp) plus the propagated error of the intermediates, which are carried
// as double-double (h = x A^T, dh = s G B) and enter the outer sums as two terms.
// Typically oracle_err is about one unit in the last place of value.
//
// Requires x, W and A to hold float32 values (bf16 values are; LoraOperands holds the
// subject's bf16 x, W and float32 A): h = x A^T and x W^T are then sums of exact products
// (dot2_add_exact), and the constructor throws std::invalid_argument otherwise. B and G need
// only give products that are exact or normal doubles (float32 values do); the underflow of
// TwoProduct is nevertheless in the bound. B, G and the scale must be at most FLT_MAX in
// magnitude where finite (std::invalid_argument otherwise): then no finite sum overflows.
//
// Special values follow oracles/extended_real.hpp: a non-finite element has the class of the
// exact extended result, with an infinite oracle_err. Where an infinity meets a finite
// intermediate (h, s h, dh), the intermediate's computed value decides zero and sign; that is
// the exact one's except for an intermediate that cancels to within its own stated error of 0
// while its terms do not all vanish, or whose scaling by s underflows to 0 (never on drawn
// operands; not certified).
#include <cstdint>
#include <vector>

#include <parity/oracles/estimate.hpp>
#include <parity/oracles/lora.hpp>

namespace parity::oracles {

class LoraFastOracle {
 public:
  // Which outputs the constructor evaluates: a check pays only for what it judges (y alone is
  // a third of the work of every output; dA and dB alone leave out dx, the largest backward
  // sum). Each evaluated element is the same with any selection.
  enum class Outputs { all, forward, backward, adapter };  // every output; y; dx, dA, dB; dA, dB

  // Evaluates the selected outputs now (the spans of op must outlive only the constructor).
  // Reading an output that was not selected, or an element outside an output, is a contract
  // violation (checked: std::logic_error).
  explicit LoraFastOracle(const LoraOperands& op, Outputs outputs = Outputs::all);

  Estimate<double> y(std::int64_t t, std::int64_t n) const { return element(y_, t, n, N_, "y"); }
  // Backward elements; require G.
  Estimate<double> dx(std::int64_t t, std::int64_t k) const { return element(dx_, t, k, K_, "dx"); }
  Estimate<double> dA(std::int64_t j, std::int64_t k) const { return element(dA_, j, k, K_, "dA"); }
  Estimate<double> dB(std::int64_t n, std::int64_t j) const { return element(dB_, n, j, r_, "dB"); }

 private:
  // Element (i, j) of a row-major output of `cols` columns; std::logic_error outside it.
  static Estimate<double> element(const std::vector<Estimate<double>>& v, std::int64_t i, std::int64_t j,
                                  std::int64_t cols, const char* name);

  std::int64_t N_ = 0, K_ = 0, r_ = 0;
  std::vector<Estimate<double>> y_, dx_, dA_, dB_;
};

}  // namespace parity::oracles
