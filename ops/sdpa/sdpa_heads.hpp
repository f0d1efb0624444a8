#pragma once
// Where sdpa's operands keep their heads in the engine's matrices (op_view.hpp). Each operand
// of sdpa and sdpa_backward is held as [B, S*H*D]: one row per batch element b (the row extent:
// batch invariance is along B), its columns one head tensor in the case's head layout
// (parameter "layout"):
//   layout 0, [B, H, S, D] (PyTorch's, FlashAttention's varlen-free API): column (h*S + s)*D + d
//   layout 1, [B, S, H, D] (FlashAttention's and most model code's):      column (s*H + h)*D + d
// A subject is handed the [B, H, S, D] view of that memory, so layout 1 reaches it as strides.
// The logsumexp is [B, H*S] in both (column h*S + s), [B, H, S] to a subject, as FlashAttention
// and PyTorch return it. PARITY_HD: the references index the matrices with it; the host twins and
// the CUDA kernels, whose tensors are [B, H, S, D], with layout 0.
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity::ops::sdpa {

struct Heads {
  std::int64_t S = 1, H = 1, D = 1;
  bool bshd = false;

  PARITY_HD std::int64_t col(std::int64_t s, std::int64_t h, std::int64_t d) const {
    return bshd ? (s * H + h) * D + d : (h * S + s) * D + d;
  }
  PARITY_HD std::int64_t lse_col(std::int64_t s, std::int64_t h) const { return h * S + s; }
};

// The keys query row i attends to: 0 .. keys - 1 (causal: the keys up to i, top-left aligned).
PARITY_HD std::int64_t visible_keys(bool causal, std::int64_t i, std::int64_t S) { return causal ? i + 1 : S; }

}  // namespace parity::ops::sdpa
