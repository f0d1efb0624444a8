#pragma once
// The oracle GEMM tests' operands and kernels (ascending_gemm_test, unordered_gemm_test).
#include <algorithm>
#include <cstdint>
#include <vector>

#include <parity/core/isa.hpp>
#include <parity/oracles/blas.hpp>

namespace parity::oracles::testing {

struct Shape {
  std::int64_t m, n, k;
};

// A stored operand: rows x cols logical, stored transposed where `trans`, with ld = stored
// columns + pad; every stored element (padding included) draw()'s, in storage order.
struct Operand {
  std::vector<double> data;
  GemmOperand<double> view;
};

template <class Draw>
Operand make_operand(std::int64_t rows, std::int64_t cols, bool trans, std::int64_t pad, Draw draw) {
  const std::int64_t stored_rows = trans ? cols : rows, ld = (trans ? rows : cols) + pad;
  Operand o;
  o.data.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, stored_rows * ld)));
  for (auto& x : o.data) x = draw();
  o.view = {o.data.data(), ld, trans};
  return o;
}

// Logical element (i, j).
inline double at(const GemmOperand<double>& x, std::int64_t i, std::int64_t j) {
  return x.trans ? x.p[j * x.ld + i] : x.p[i * x.ld + j];
}

// Every kernel this CPU has.
inline std::vector<Isa> kernels() {
  std::vector<Isa> out{Isa::portable};
  if (best_isa() != Isa::portable) out.push_back(Isa::avx2);
  if (best_isa() == Isa::avx512) out.push_back(Isa::avx512);
  return out;
}

}  // namespace parity::oracles::testing
