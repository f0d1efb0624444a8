#pragma once
// Where sdpa's operands keep their heads in the engine's matrices (op_view.hpp). sdpa has H = Hkv*G
// query heads and Hkv key/value heads (grouped-query attention; multi-head is G = 1, multi-query
// Hkv = 1): query head h reads key/value head h / G, PyTorch's (enable_gqa, repeat_interleave) and
// FlashAttention's convention. The operands of the query heads (q, o, do, dq) are held as
// [B, S*H*D], those of the key/value heads (k, v, dk, dv) as [B, S*Hkv*D]: one row per batch
// element b (the row extent: batch invariance is along B), its columns one head tensor in the
// case's head layout (parameter "layout"), with H or Hkv heads:
//   layout 0, [B, H, S, D] (PyTorch's, FlashAttention's varlen-free API): column (h*S + s)*D + d
//   layout 1, [B, S, H, D] (FlashAttention's and most model code's):      column (s*H + h)*D + d
// A subject is handed the [B, H, S, D] (and [B, Hkv, S, D]) view of that memory, so layout 1
// reaches it as strides. The logsumexp is [B, H*S] in both (column h*S + s), [B, H, S] to a
// subject, as FlashAttention and PyTorch return it. PARITY_HD: the references index the matrices
// with it; the host twins and the CUDA kernels, whose tensors are [B, H, S, D], with layout 0.
// The references (sdpa_op.hpp) and the kernels (sdpa_kernel.cuh) both include this header, and
// the references nothing else of the kernels': an oracle never knows a subject (docs/design.md).
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity::ops::sdpa {

struct Heads {
  std::int64_t S = 1, H = 1, D = 1;  // H: the query heads, Hkv * G
  std::int64_t G = 1;                // query heads per key/value head
  bool bshd = false;

  // Element (s, d) of query head h in a query-head operand (q, o, do, dq).
  PARITY_HD std::int64_t col(std::int64_t s, std::int64_t h, std::int64_t d) const {
    return bshd ? (s * H + h) * D + d : (h * S + s) * D + d;
  }
  PARITY_HD std::int64_t lse_col(std::int64_t s, std::int64_t h) const { return h * S + s; }
  PARITY_HD std::int64_t Hkv() const { return H / G; }
  // The key/value head that query head h reads.
  PARITY_HD std::int64_t kv_head(std::int64_t h) const { return h / G; }
  // The heads of the key/value operands (k, v, dk, dv): Hkv of them, one query head each.
  PARITY_HD Heads kv() const { return {.S = S, .H = Hkv(), .D = D, .G = 1, .bshd = bshd}; }
  // Element (s, d) of the key/value head that query head h reads, in a key/value operand.
  PARITY_HD std::int64_t kv_col(std::int64_t s, std::int64_t h, std::int64_t d) const {
    return kv().col(s, kv_head(h), d);
  }
};

// The keys query row i attends to: 0 .. keys - 1 (causal: the keys up to i, top-left aligned).
PARITY_HD std::int64_t visible_keys(bool causal, std::int64_t i, std::int64_t S) { return causal ? i + 1 : S; }

}  // namespace parity::ops::sdpa
