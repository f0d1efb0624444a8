#include "fuzz/decode_lora.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "fuzz/byte_reader.hpp"
#include "fuzz/fuzz_values.hpp"
#include "properties/lora/straddle.hpp"

namespace parity::fuzz {
namespace {

const std::vector<std::string> kOperands = {"x", "W", "A", "B", "dy"};

std::vector<double> alphas(std::int64_t r) {
  return {static_cast<double>(r), 2.0 * static_cast<double>(r), 16.0, 1.0};
}

}  // namespace

const std::vector<std::string>& lora_fuzz_properties() {
  static const std::vector<std::string> all = {"repeatable",        "rows_independent", "layout_invariant",
                                               "base_frozen",       "zero_adapter_gradients",
                                               "forward_accuracy", "gradient_accuracy"};
  return all;
}

FuzzInput decode_lora(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  FuzzInput out;
  out.property = lora_fuzz_properties()[in.u8() % lora_fuzz_properties().size()];
  Case& c = out.c;
  c.family = "lora";
  const std::int64_t T = 1 + in.u8() % kLoraMaxExtent, N = 1 + in.u8() % kLoraMaxExtent,
                     K = 1 + in.u8() % kLoraMaxExtent, r = 1 + in.u8() % kLoraMaxRank;
  c.dims = {{"T", T}, {"N", N}, {"K", K}, {"r", r}};
  c.probe_row = in.u8() % T;
  for (const auto& op : kOperands)
    if (const Layout l = decode_layout(in.u8()); !l.is_contiguous()) c.layouts[op] = l;
  const std::uint8_t flags = in.u8();
  c.params["alpha"] = alphas(r)[flags & 3u];
  if (flags & 4u) c.params["b_zero"] = 1.0;
  const int straddles = std::min((flags >> 3) & 7, 4);
  c.seed = in.u64();
  const std::vector<std::int64_t> sizes = {T * K, N * K, r * K, N * r, T * N};
  while (in.remaining() > 0 && c.patches.size() < kMaxPatches) c.patches.push_back(decode_patch(in, kOperands, sizes));
  if (straddles > 0) {
    try {
      for (Patch& p : properties::lora::straddle_output_patches(c, straddles)) c.patches.push_back(p);
    } catch (const InputError&) {
      // Not reached for a decoded Case; the harness reports a refused Case when it checks it.
    }
  }
  return out;
}

std::vector<std::uint8_t> encode_lora(const FuzzInput& in, int straddles) {
  const Case& c = in.c;
  const auto& props = lora_fuzz_properties();
  const auto prop = std::find(props.begin(), props.end(), in.property);
  if (c.family != "lora" || prop == props.end()) throw InputError("encode_lora: not a lora fuzz input");
  const std::int64_t T = c.dim("T"), N = c.dim("N"), K = c.dim("K"), r = c.dim("r");
  auto within = [](std::int64_t v, std::int64_t max) { return v >= 1 && v <= max; };
  if (!within(T, kLoraMaxExtent) || !within(N, kLoraMaxExtent) || !within(K, kLoraMaxExtent) ||
      !within(r, kLoraMaxRank) || c.dims.size() != 4 || c.patches.size() > kMaxPatches || straddles < 0 ||
      straddles > 4)
    throw InputError("encode_lora: " + c.summary() + " is outside the harness caps");
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(prop - props.begin()));
  for (std::int64_t v : {T - 1, N - 1, K - 1, r - 1}) w.u8(static_cast<std::uint8_t>(v));
  w.u8(static_cast<std::uint8_t>(c.probe_row));
  for (const auto& op : kOperands) {
    const Layout l = c.layout(op);
    if (decode_layout(encode_layout(l)) != l) throw InputError("encode_lora: layout of " + op + " has no encoding");
    w.u8(encode_layout(l));
  }
  const auto a = alphas(r);
  const auto alpha = std::find(a.begin(), a.end(), c.param("alpha", static_cast<double>(r)));
  if (alpha == a.end()) throw InputError("encode_lora: alpha has no encoding");
  w.u8(static_cast<std::uint8_t>((alpha - a.begin()) | (c.param("b_zero", 0.0) != 0.0 ? 4 : 0) | straddles << 3));
  w.u64(c.seed);
  for (const Patch& p : c.patches) encode_patch(w, p, kOperands);
  return w.bytes();
}

}  // namespace parity::fuzz
