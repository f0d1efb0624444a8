#pragma once
// What the host twins of sdpa and sdpa_backward share: a call's shape and parameters, operands
// as float32, one head of one batch element as a loader, and the outputs' rounding.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/thread_pool.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/sdpa/sdpa_heads.hpp>

namespace parity::ops::sdpa {

struct HostCall {
  Heads hd;
  std::int64_t B;
  bool causal;
  float scale;
  DType out;

  // `output`: one of the outputs (they share a dtype group). The call's tensors are [B, H, S, D]
  // and [B, Hkv, S, D] whatever their memory order (the layout), so hd indexes their logical
  // values in layout 0.
  HostCall(const OpCall& c, const char* output)
      : hd{.S = c.extent("S"),
           .H = c.extent("Hkv") * c.extent("G"),
           .D = c.extent("D"),
           .G = c.extent("G"),
           .bshd = false},
        B(c.extent("B")),
        causal(c.param("causal") != 0),
        scale(static_cast<float>(c.param("scale"))),
        out(c.output_dtype(output)) {
    for (const auto& [name, t] : c.inputs)
      if (t.shape().size() != 4)
        throw std::invalid_argument("sdpa host kernel: " + name + " is not [B, H, S, D] (op_view.hpp hands those)");
  }
  // The elements of one batch element of a query-head and of a key/value-head operand.
  std::int64_t row_elements() const { return hd.S * hd.H * hd.D; }
  std::int64_t kv_row_elements() const { return hd.S * hd.Hkv() * hd.D; }
};

// The logical values of an operand as float32 (exact: its dtype is bf16 or f32), row-major.
inline std::vector<float> floats(const Tensor& t) {
  const std::vector<double> d = t.values();
  return {d.begin(), d.end()};
}

// One head of batch element b of an operand held as floats: (s, d) -> float.
struct HostHead {
  const float* row;
  Heads hd;  // the operand's heads
  std::int64_t h;
  float operator()(std::int64_t s, std::int64_t d) const { return row[hd.col(s, h, d)]; }
};

// Query head h of a [B, H, S, D] operand (q, do).
inline HostHead query_head(const std::vector<float>& x, const HostCall& c, std::int64_t b, std::int64_t h) {
  return {x.data() + b * c.row_elements(), c.hd, h};
}
// The head of a [B, Hkv, S, D] operand (k, v) that query head h reads.
inline HostHead kv_head(const std::vector<float>& x, const HostCall& c, std::int64_t b, std::int64_t h) {
  return {x.data() + b * c.kv_row_elements(), c.hd.kv(), c.hd.kv_head(h)};
}

// f(b, h) for every h < heads of every batch element (the query heads H, or the key/value heads
// Hkv), each on one thread of parity's pool (core/thread_pool.hpp). A head's outputs are a
// function of that head alone, computed in its own fixed order, so the bits do not depend on the
// thread count; f writes only its head's elements of shared outputs. At most thread_count() heads
// hold their scratch at once (the backward's P and dS: 2 G S^2 floats a key/value head, 145 MB at
// the gate's 4253 tokens and G = 1).
template <class F>
void for_each_head(const HostCall& c, std::int64_t heads, const F& f) {
  parallel_chunks(static_cast<std::size_t>(c.B * heads), [&](std::size_t bh) {
    const auto i = static_cast<std::int64_t>(bh);
    f(i / heads, i % heads);
  });
}

// Element i of an output, rounded once to its dtype (bf16: round to nearest even).
inline void store(Tensor& t, std::int64_t i, float v) {
  if (t.dtype() == DType::bf16) t.set_bits(i, bf16_from_float_rne(v));
  else t.set_value(i, v);
}

}  // namespace parity::ops::sdpa
