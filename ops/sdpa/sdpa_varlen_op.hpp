#pragma once
// Attention over packed variable-length sequences (FlashAttention's varlen API,
// flash_attn_varlen_func): sdpa (sdpa_op.hpp) per batch element b over its own L_b tokens, a
// self-attention of L_b queries over L_b keys (causal: query i sees keys 0..i), with the same
// scale, grouped-query heads (H = Hkv*G, query head h reads key/value head h / G) and outputs o
// and lse. S is a ragged extent (op_decl.hpp, ExtentDecl::ragged): each row's L_b in [1, S] is its
// parameter "S.<b>", drawn on its own, and the case's S, an upper bound of the lengths (not
// necessarily one of them), is the max_seqlen a subject receives: at least every length, as
// FlashAttention's API requires. A subject's q, o are packed
// [total, H, D], k, v [total, Hkv, D] and lse [total, H] (total = sum_b L_b, sequence b at
// cu_seqlens[b] = OpCall::cu_seqlens("S")[b]): FlashAttention's q, k, v, out; FA2 and FA3 return
// the logsumexp as [H, total], which an adapter transposes. The engine holds each operand padded,
// the matrices [B, S*H*D], [B, S*Hkv*D] and [B, S*H] (column (s*H + h)*D + d and s*H + h, every
// position s >= L_b of an output +0). The rows that must be independent and batch invariant are
// the sequences b: a plan chosen from the packed total (sum_b L_b) shows in rows_independent,
// batch_vs_batch, rows_padded and rows_chunked.
#include <parity/ops/sdpa/sdpa_op.hpp>

namespace parity::ops::sdpa {

struct SdpaVarlen {
  // sdpa's declaration (its extents, caps, scales and parameters) with S ragged, the operands
  // packed and no layout (a packed tensor has one memory order). The work counts every row at S
  // (the lengths' bound): a case costs at most sdpa's.
  static OpDecl declaration() {
    OpDecl d = Sdpa::declaration();
    d.name = "sdpa_varlen";
    d.description =
        "attention over packed variable-length sequences: per sequence b of L_b tokens, o = softmax(scale q k^T, "
        "causal or not) v and lse; q, o [total,H,D] with H = Hkv*G, k, v [total,Hkv,D], lse [total,H], total = "
        "sum L_b (cu_seqlens)";
    for (auto& e : d.extents) e.ragged = e.name == "S";
    d.inputs = {packed("q", "Hkv*G", {1.0, 10.0}), packed("k", "Hkv", {1.0, 10.0}), packed("v", "Hkv")};
    d.outputs = {packed("o", "Hkv*G"), lse()};
    std::erase_if(d.params, [](const ParamDecl& p) { return p.name == "layout"; });
    return d;
  }

  template <class R>
  static void reference(Eval<R>& e) {
    // Row b's heads over its own L_b positions; column (s*H + h)*D + d whatever the length.
    const std::int64_t H = e.extent("Hkv") * e.extent("G");
    const bool causal = e.param_value("causal") != 0;
    const auto q = e.input("q"), k = e.input("k"), v = e.input("v");
    auto o = e.output("o");
    auto lse = e.output("lse");
    const R scale = e.param("scale");
    for (std::int64_t b = 0; b < e.extent("B"); ++b) {
      const Heads hd{.S = e.length("S", b), .H = H, .D = e.extent("D"), .G = e.extent("G"), .bshd = true};
      for (std::int64_t h = 0; h < hd.H; ++h)
        attention_head(e, q, k, v, o, lse, hd, causal, scale, b, h, [&](std::int64_t i) { return i * hd.H + h; });
    }
  }

 private:
  // A packed operand of `heads` heads: the matrix [B, S*heads*D], its dims [B, S, heads, D].
  static TensorDecl packed(const char* name, const std::string& heads, std::vector<double> scales = {1.0}) {
    return {.name = name,
            .shape = {"B", "S*" + heads + "*D"},
            .dtype_group = "act",
            .scales = std::move(scales),
            .dims = {"B", "S", heads, "D"}};
  }
  static TensorDecl lse() {
    return {.name = "lse", .shape = {"B", "S*Hkv*G"}, .dtype_group = "act", .dims = {"B", "S", "Hkv*G"}};
  }
};

}  // namespace parity::ops::sdpa
