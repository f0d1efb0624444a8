#pragma once
// The host twin of parity's varlen attention kernel (sdpa_varlen_op.hpp): sdpa's host twin
// (sdpa_host.hpp) over packed operands, each sequence b's query rows in sdpa_arith.cuh's
// arithmetic over its own L_b keys, the (b, h) heads spread over threads. A sequence's heads are
// read in place in the packed tensors: position s of sequence b, head h, element d at
// ((cu_seqlens[b] + s)*H + h)*D + d, which is layout 1's column of a sequence starting at
// cu_seqlens[b] (sdpa_heads.hpp, bshd). Its bits are sdpa's host twin's for each sequence alone
// (B = 1, S = L_b, layout 1), whatever the batch. `Policy`: VarlenStandard, or a probe's change.
#include <stdexcept>
#include <vector>

#include <parity/ops/sdpa/sdpa_host.hpp>

namespace parity::ops::sdpa {

struct VarlenStandard {
  // The keys query i of a sequence of `length` tokens sees; `max_length` is the call's max_seqlen
  // and `room` the packed tokens from the sequence's first to the batch's last (what a kernel can
  // read).
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t length, std::int64_t /*max_length*/,
                           std::int64_t /*room*/) {
    return visible_keys(causal, i, length);
  }
  static float row(const RowCall& c) { return Standard::row(c); }
};

template <class Policy>
class SdpaVarlenHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return kernel_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t B = call.extent("B"), Hkv = call.extent("Hkv"), G = call.extent("G"), H = Hkv * G,
                       D = call.extent("D"), S = call.extent("S");
    const std::vector<std::int64_t> cu = call.cu_seqlens("S");
    const std::int64_t total = cu.back();
    for (const auto& [name, heads] : {std::pair{"q", H}, std::pair{"k", Hkv}, std::pair{"v", Hkv}})
      if (call.input(name).shape() != std::vector<std::int64_t>{total, heads, D})
        throw std::invalid_argument(std::string("sdpa_varlen host kernel: ") + name + " is not packed [total, " +
                                    (heads == H ? "H" : "Hkv") + ", D] (op_view.hpp hands those)");
    const bool causal = call.param("causal") != 0;
    const auto scale = static_cast<float>(call.param("scale"));
    const DType out = call.output_dtype("o");
    const std::vector<float> q = floats(call.input("q")), k = floats(call.input("k")), v = floats(call.input("v"));
    Tensor o = Tensor::zeros(out, {total, H, D}), lse = Tensor::zeros(out, {total, H});
    parallel_chunks(static_cast<std::size_t>(B * H), [&](std::size_t bh) {
      const std::int64_t b = static_cast<std::int64_t>(bh) / H, h = static_cast<std::int64_t>(bh) % H;
      const std::int64_t length = cu[b + 1] - cu[b], room = total - cu[b];
      const Heads hd{.S = length, .H = H, .D = D, .G = G, .bshd = true};
      std::vector<float> p(static_cast<std::size_t>(room)), acc(static_cast<std::size_t>(D));
      for (std::int64_t i = 0; i < length; ++i) {
        const RowCall r{HostHead{q.data() + cu[b] * H * D, hd, h},
                        HostHead{k.data() + cu[b] * Hkv * D, hd.kv(), hd.kv_head(h)},
                        HostHead{v.data() + cu[b] * Hkv * D, hd.kv(), hd.kv_head(h)},
                        i,
                        Policy::keys(causal, i, length, S, room),
                        D,
                        B * H,
                        scale,
                        p.data(),
                        acc.data(),
                        total};
        store(lse, (cu[b] + i) * H + h, Policy::row(r));
        for (std::int64_t d = 0; d < D; ++d) store(o, ((cu[b] + i) * H + h) * D + d, acc[d]);
      }
    });
    return {{"o", std::move(o)}, {"lse", std::move(lse)}};
  }
};

}  // namespace parity::ops::sdpa
