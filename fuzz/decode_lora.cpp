#include <parity/fuzz/decode_lora.hpp>

#include <algorithm>

#include <parity/core/error.hpp>
#include <parity/fuzz/byte_reader.hpp>
#include <parity/fuzz/fuzz_values.hpp>
#include <parity/properties/lora/straddle.hpp>

namespace parity::fuzz {
namespace {

const std::vector<std::string> kOperands = {"x", "W", "A", "B", "dy"};

std::vector<double> alphas(std::int64_t r) { return {static_cast<double>(r), 2.0 * static_cast<double>(r), 16.0, 1.0}; }

constexpr int kSmallExtentBytes = 192, kSmallRankBytes = 224;

template <std::size_t N>
std::int64_t extent(std::uint8_t b, int small_bytes, std::int64_t small_max, const std::int64_t (&realistic)[N]) {
  return b < small_bytes ? 1 + b % small_max : realistic[(b - small_bytes) % N];
}

// The byte that decodes to v, or -1.
template <std::size_t N>
int extent_byte(std::int64_t v, int small_bytes, std::int64_t small_max, const std::int64_t (&realistic)[N]) {
  if (v >= 1 && v <= small_max) return static_cast<int>(v - 1);
  for (std::size_t i = 0; i < N; ++i)
    if (realistic[i] == v) return small_bytes + static_cast<int>(i);
  return -1;
}

std::int64_t forward_work(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  return T * K * (N + r) + T * N * r;
}

std::int64_t operand_elements(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  return T * K + N * K + r * K + N * r + T * N;
}

// Lowers K, then N, then T, then r to the largest value that keeps the work and the operand
// elements within their budgets.
void fit_budget(std::int64_t& T, std::int64_t& N, std::int64_t& K, std::int64_t& r) {
  // Both are a d + b in each extent d, the others fixed.
  const auto fit = [](std::int64_t& d, std::int64_t a, std::int64_t b, std::int64_t budget) {
    if (a > 0 && a * d + b > budget) d = std::clamp<std::int64_t>((budget - b) / a, 1, d);
  };
  fit(K, T * (N + r), T * N * r, kLoraWorkBudget);
  fit(K, T + N + r, N * r + T * N, kLoraElementBudget);
  fit(N, T * (K + r), T * K * r, kLoraWorkBudget);
  fit(N, K + r + T, T * K + r * K, kLoraElementBudget);
  fit(T, K * (N + r) + N * r, 0, kLoraWorkBudget);
  fit(T, K + N, N * K + r * K + N * r, kLoraElementBudget);
  fit(r, T * (K + N), T * K * N, kLoraWorkBudget);
  fit(r, K + N, T * K + N * K + T * N, kLoraElementBudget);
}

}  // namespace

const std::vector<std::string>& lora_fuzz_properties() {
  static const std::vector<std::string> all = {"repeatable",       "rows_independent",       "layout_invariant",
                                               "base_frozen",      "zero_adapter_gradients", "forward_accuracy",
                                               "gradient_accuracy"};
  return all;
}

FuzzInput decode_lora(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  FuzzInput out;
  out.property = lora_fuzz_properties()[in.u8() % lora_fuzz_properties().size()];
  Case& c = out.c;
  c.family = "lora";
  std::uint8_t extent_bytes[4];
  for (std::uint8_t& b : extent_bytes) b = in.u8();
  const std::uint8_t probe_byte = in.u8();
  std::vector<std::uint8_t> layout_bytes(kOperands.size());
  for (std::uint8_t& b : layout_bytes) b = in.u8();
  const std::uint8_t flags = in.u8();
  // Without the realistic-sizes flag every extent byte decodes to a small extent.
  const bool realistic = (flags >> 6) == 3u;
  const auto dim = [realistic](std::uint8_t b, int small_bytes, std::int64_t small_max, const auto& table) {
    return extent(realistic ? b : static_cast<std::uint8_t>(b % small_bytes), small_bytes, small_max, table);
  };
  std::int64_t T = dim(extent_bytes[0], kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents);
  std::int64_t N = dim(extent_bytes[1], kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents);
  std::int64_t K = dim(extent_bytes[2], kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents);
  std::int64_t r = dim(extent_bytes[3], kSmallRankBytes, kLoraMaxRank, kLoraRealisticRanks);
  fit_budget(T, N, K, r);
  c.dims = {{"T", T}, {"N", N}, {"K", K}, {"r", r}};
  c.probe_row = probe_byte % T;
  for (std::size_t i = 0; i < kOperands.size(); ++i)
    if (const Layout l = decode_layout(layout_bytes[i]); !l.is_contiguous()) c.layouts[kOperands[i]] = l;
  c.params["alpha"] = alphas(r)[flags & 3u];
  if (flags & 4u) c.params["b_zero"] = 1.0;
  const int straddles = std::max(((flags >> 3) & 7) - 3, 0);  // 0 for half the values, else 1-4
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
  const int bytes[] = {extent_byte(T, kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents),
                       extent_byte(N, kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents),
                       extent_byte(K, kSmallExtentBytes, kLoraMaxExtent, kLoraRealisticExtents),
                       extent_byte(r, kSmallRankBytes, kLoraMaxRank, kLoraRealisticRanks)};
  if (std::find(std::begin(bytes), std::end(bytes), -1) != std::end(bytes) ||
      forward_work(T, N, K, r) > kLoraWorkBudget || operand_elements(T, N, K, r) > kLoraElementBudget ||
      c.dims.size() != 4 || c.patches.size() > kMaxPatches || straddles < 0 || straddles > 4)
    throw InputError("encode_lora: " + c.summary() + " is outside the harness caps");
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(prop - props.begin()));
  for (const int b : bytes) w.u8(static_cast<std::uint8_t>(b));
  w.u8(static_cast<std::uint8_t>(c.probe_row));
  for (const auto& op : kOperands) {
    const Layout l = c.layout(op);
    if (decode_layout(encode_layout(l)) != l) throw InputError("encode_lora: layout of " + op + " has no encoding");
    w.u8(encode_layout(l));
  }
  const auto a = alphas(r);
  const auto alpha = std::find(a.begin(), a.end(), c.param("alpha", static_cast<double>(r)));
  if (alpha == a.end()) throw InputError("encode_lora: alpha has no encoding");
  const bool realistic = T > kLoraMaxExtent || N > kLoraMaxExtent || K > kLoraMaxExtent || r > kLoraMaxRank;
  w.u8(static_cast<std::uint8_t>((alpha - a.begin()) | (c.param("b_zero", 0.0) != 0.0 ? 4 : 0) |
                                 (straddles > 0 ? straddles + 3 : 0) << 3 | (realistic ? 0xC0 : 0)));
  w.u64(c.seed);
  for (const Patch& p : c.patches) encode_patch(w, p, kOperands);
  return w.bytes();
}

}  // namespace parity::fuzz
