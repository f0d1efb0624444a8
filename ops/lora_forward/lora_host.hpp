#pragma once
// The host twin of parity's LoRA kernel: the exact arithmetic of lora_arith.cuh, in the orders it
// documents, on the CPU, and its subjects of lora_forward (ForwardHost) and lora_backward
// (BackwardHost). `Arith` is a policy (CUTLASS style) that the mismatch probes replace to build
// real alternative implementations (lora_probes.hpp); StandardArithmetic is the kernel's own.
// Every product runs through fma_chain.hpp: vectorised across outputs, each output one chain in
// its documented order, so the bits are those of the per-element definition whatever the
// instruction set or thread count. Intermediates live in this thread's scratch buffers.
#include <cstdint>
#include <optional>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/isa.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/lora_forward/lora_arith.cuh>
#include <parity/ops/lora_forward/lora_kernel.hpp>
#include <parity/subjects/builtin/fma_chain.hpp>
#include <parity/subjects/builtin/fma_round.hpp>
#include <parity/subjects/builtin/scratch.hpp>

namespace parity::ops::lora_forward {

using subjects::builtin::MatrixView;

struct StandardArithmetic {
  static float mac(float acc, float a, float b) { return arith::mac(acc, a, b); }
  static std::uint16_t round_output(float v) { return bf16_from_float_rne(v); }
  static float effective_scale(float s) { return s; }
  // Whether the forward base reduction is split in two halves for this many rows and this
  // reduction depth K.
  static bool split_base_reduction(std::int64_t /*rows*/, std::int64_t /*K*/) { return false; }
  // Whether a call of rank r runs with B's last column left out (forward and backward).
  static bool drops_last_rank_column(std::int64_t /*r*/) { return false; }
};

// Whether a policy keeps the kernel's multiply-add (then the vector kernels run its chains;
// otherwise mac_panel, the scalar kernel, runs them with the policy's own mac).
template <class Arith>
inline constexpr bool kKeepsKernelMac = &Arith::mac == &StandardArithmetic::mac;

// Whether a policy keeps the kernel's output rounding (then y's last step, fma and bf16 rounding,
// runs vectorised by fma_round.hpp; otherwise element by element with the policy's rounding).
template <class Arith>
inline constexpr bool kKeepsKernelRounding = &Arith::round_output == &StandardArithmetic::round_output;

template <class Arith>
class LoraHost {
 public:
  // `isa`: the vector kernels to use (at most best_isa(); a lower one gives the same bits).
  explicit LoraHost(Isa isa = best_isa()) : isa_(isa) {}

  // y = x W^T + s (x A^T) B^T, [T, N] bf16 contiguous. Throws InputError as check_operands.
  Tensor forward(const LoraOperands& in) const { return forward(refs(in)); }
  Tensor forward(const LoraOperandRefs& operands) const {
    std::optional<Tensor> dropped;
    const LoraOperandRefs in = effective(operands, dropped);
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
    float* x = subjects::builtin::scratch(0, n(T, K));
    subjects::builtin::to_floats(MatrixView::of(in.x), x);
    const float* h = low_rank_activations(x, in, subjects::builtin::zeroed_scratch(1, n(T, r)));
    const float s = Arith::effective_scale(in.scale);
    const MatrixView Wt = MatrixView::of(in.W).transposed();  // b(k, n) = W[n][k]
    const MatrixView Bt = MatrixView::of(in.B).transposed();  // b(j, n) = B[n][j]
    const bool split = Arith::split_base_reduction(T, K);
    const std::int64_t half = K / 2;
    Tensor y = Tensor::zeros(DType::bf16, {T, N});
    auto* out = y.storage<std::uint16_t>();
    // Each panel of 32 columns through both chains and y's last step on one thread, its chains'
    // outputs in that thread's buffers of T x 32 (kept in its cache, not shared).
    constexpr std::int64_t w = subjects::builtin::kPanelWidth;
    subjects::builtin::for_panel_ranges(N, T * (K + r), [&](std::int64_t j0, std::int64_t j1) {
      float* base = subjects::builtin::scratch(2, n(T, w));
      float* low = subjects::builtin::scratch(3, n(T, w));
      for (std::int64_t j = j0; j < j1; j += w) {
        const std::int64_t width = std::min(w, j1 - j);
        std::fill(base, base + n(T, w), 0.0f);
        std::fill(low, low + n(T, w), 0.0f);
        if (split) {
          float* second = subjects::builtin::zeroed_scratch(4, n(T, w));
          columns(T, x, K, Wt.row_range(0, half), base, w, j, j + width);
          columns(T, x + half, K, Wt.row_range(half, K), second, w, j, j + width);
          for (std::size_t i = 0; i < n(T, w); ++i) base[i] = base[i] + second[i];
        } else {
          columns(T, x, K, Wt, base, w, j, j + width);
        }
        columns(T, h, r, Bt, low, w, j, j + width);
        // arith::forward_output, vectorised where the policy keeps the kernel's rounding.
        if constexpr (kKeepsKernelRounding<Arith>) {
          subjects::builtin::fma_round_bf16(isa_, T, width, N, w, s, low, base, out + j);
        } else {
          for (std::int64_t t = 0; t < T; ++t)
            for (std::int64_t c = 0; c < width; ++c)
              out[t * N + j + c] = Arith::round_output(arith::forward_sum(base[t * w + c], low[t * w + c], s));
        }
      }
    });
    return y;
  }

  // dx, dA, dB for dy = dL/dy ([T, N] bf16, any strides). Throws InputError as check_operands
  // and check_dy.
  LoraGradients backward(const LoraOperands& in, const Tensor& dy) const { return backward(refs(in), dy); }
  LoraGradients backward(const LoraOperandRefs& operands, const Tensor& dy) const {
    std::optional<Tensor> dropped;
    const LoraOperandRefs in = effective(operands, dropped);
    check_dy(in, dy);
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), N = in.W.dim(0), r = in.A.dim(0);
    float* x = subjects::builtin::scratch(0, n(T, K));
    subjects::builtin::to_floats(MatrixView::of(in.x), x);
    float* g = subjects::builtin::scratch(2, n(T, N));  // dy, [T][N]
    subjects::builtin::to_floats(MatrixView::of(dy), g);
    const float* h = low_rank_activations(x, in, subjects::builtin::zeroed_scratch(1, n(T, r)));
    const float s = Arith::effective_scale(in.scale);

    float* dh = subjects::builtin::zeroed_scratch(3, n(T, r));
    chains(T, g, N, MatrixView::of(in.B), dh, r);  // b(n, j) = B[n][j]
    for (std::size_t i = 0; i < n(T, r); ++i) dh[i] = arith::scaled(s, dh[i]);

    LoraGradients out;
    float* acc = subjects::builtin::zeroed_scratch(4, n(T, K));
    chains(T, g, N, MatrixView::of(in.W), acc, K);   // b(n, k) = W[n][k], then
    chains(T, dh, r, MatrixView::of(in.A), acc, K);  // b(j, k) = A[j][k], one chain
    out.dx = Tensor::zeros(DType::bf16, {T, K});
    auto* dx = out.dx.storage<std::uint16_t>();
    for (std::size_t i = 0; i < n(T, K); ++i) dx[i] = Arith::round_output(acc[i]);

    // dA[j][k] over t: a(j, t) = dh[t][j], b(t, k) = x[t][k].
    const std::vector<float> dht = subjects::builtin::to_floats(MatrixView::of_floats(dh, T, r, r).transposed());
    out.dA = Tensor::zeros(DType::f32, {r, K});
    chains(r, dht.data(), T, MatrixView::of_floats(x, T, K, K), out.dA.storage<float>(), K);

    // dB[n][j] = s * (chain over t of h[t][j] dy[t][n]), computed as its transpose [j][n].
    const std::vector<float> ht = subjects::builtin::to_floats(MatrixView::of_floats(h, T, r, r).transposed());
    float* dbt = subjects::builtin::zeroed_scratch(5, n(r, N));
    chains(r, ht.data(), T, MatrixView::of_floats(g, T, N, N), dbt, N);
    out.dB = Tensor::zeros(DType::f32, {N, r});
    float* dB = out.dB.storage<float>();
    for (std::int64_t i = 0; i < N; ++i)
      for (std::int64_t j = 0; j < r; ++j) dB[i * r + j] = arith::scaled(s, dbt[j * N + i]);
    return out;
  }

 private:
  static std::size_t n(std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); }

  static LoraOperandRefs refs(const LoraOperands& in) { return {in.x, in.W, in.A, in.B, in.scale}; }

  // The operands checked, in place, but B where the policy drops its last column: a copy with that
  // column +0, held in `dropped` (the caller's B is not written).
  static LoraOperandRefs effective(const LoraOperandRefs& in, std::optional<Tensor>& dropped) {
    check_operands(in);
    const std::int64_t N = in.B.dim(0), r = in.B.dim(1);
    if (!Arith::drops_last_rank_column(r)) return in;
    dropped = in.B;
    for (std::int64_t i = 0; i < N; ++i) dropped->set_value(i * r + r - 1, 0.0);
    return {in.x, in.W, in.A, *dropped, in.scale};
  }

  // The panel kernel of the policy's chains: isa_'s vector kernel where it keeps the kernel's
  // multiply-add, else the scalar kernel with its own.
  subjects::builtin::PanelKernel kernel() const {
    if constexpr (kKeepsKernelMac<Arith>) return subjects::builtin::fma_panel_kernel(isa_);
    else return &subjects::builtin::mac_panel<Arith>;
  }

  // c[i][j] (row stride ldc) continues over the rows p of b with a[i][p] (row stride lda), on the
  // thread pool (fma_chain.hpp's chains_with).
  void chains(std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c, std::int64_t ldc) const {
    subjects::builtin::chains_with(kernel(), M, a, lda, b, c, ldc, isa_);
  }

  // chains() for columns j0 <= j < j1 alone, c pointing at column j0, on the calling thread
  // (fma_chain.hpp's chain_columns).
  void columns(std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c, std::int64_t ldc,
               std::int64_t j0, std::int64_t j1) const {
    subjects::builtin::chain_columns(kernel(), isa_, M, a, lda, b, c, ldc, j0, j1);
  }

  // h[t][j] = sum_k x[t][k] A[j][k], float32, T x r, from x's float32 copy, into h (zeroed).
  const float* low_rank_activations(const float* x, const LoraOperandRefs& in, float* h) const {
    const std::int64_t T = in.x.dim(0), K = in.x.dim(1), r = in.A.dim(0);
    chains(T, x, K, MatrixView::of(in.A).transposed(), h, r);  // b(k, j) = A[j][k]
    return h;
  }

  Isa isa_;
};

// The host twin as a subject of lora_forward: y.
template <class Arith>
class ForwardHost final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override { return {{"y", LoraHost<Arith>().forward(operand_refs_of(call))}}; }
};

// The host twin as a subject of lora_backward: dx, dA and dB.
template <class Arith>
class BackwardHost : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    LoraGradients g = LoraHost<Arith>().backward(operand_refs_of(call), call.input("dy"));
    return {{"dx", std::move(g.dx)}, {"dA", std::move(g.dA)}, {"dB", std::move(g.dB)}};
  }
};

}  // namespace parity::ops::lora_forward
