#include <parity/properties/lora/lora_problem.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <parity/core/bf16.hpp>
#include <parity/core/case_fields.hpp>
#include <parity/core/error.hpp>
#include <parity/core/limits.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/core/random_fill.hpp>

namespace parity::properties::lora {
namespace {

enum Stream : std::uint32_t { kX = 1, kXProbe = 2, kW = 3, kA = 4, kB = 5, kDy = 6, kDyProbe = 7 };

std::int64_t positive_dim(const Case& c, const std::string& name) {
  const std::int64_t v = c.dim(name);
  if (v < 1) throw InputError("case.dims." + name + ": must be >= 1 (got " + std::to_string(v) + ")");
  if (v > kMaxExtent) throw InputError("case.dims." + name + ": larger than 2^20");
  return v;
}

void apply_patches(const Case& c, const std::string& operand, Tensor& t) {
  for (std::size_t i = 0; i < c.patches.size(); ++i) {
    const Patch& p = c.patches[i];
    if (p.operand != operand) continue;
    t.set_value(p.index, static_cast<double>(bits_float(static_cast<std::uint32_t>(p.bits))));
  }
}

// The work and memory limits (docs/command.md): one forward is T K (N + r) + T N r multiply-adds
// (the largest reference shape, T 33 N 5120 K 5120 r 16, needs 8.7e8), at most 2^33; the operands as
// laid out take at most kMaxCaseBytes.
void check_limits(const Case& c, std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  const double t = static_cast<double>(T), n = static_cast<double>(N), k = static_cast<double>(K),
               rr = static_cast<double>(r);
  require_within("case.dims", "T K (N + r) + T N r (multiply-adds of one forward)", t * k * (n + rr) + t * n * rr,
                 static_cast<double>(kMaxWork), "2^33");
  const double bytes = 2 * c.layout("x").storage_elements(T, K) + 2 * c.layout("W").storage_elements(N, K) +
                       4 * c.layout("A").storage_elements(r, K) + 4 * c.layout("B").storage_elements(N, r) +
                       2 * c.layout("dy").storage_elements(T, N);
  require_case_bytes("case.dims/case.layouts", "the storage of x, W, A, B and dy as laid out, in bytes,", bytes);
}

}  // namespace

bool is_lora_operand(const std::string& name) {
  return name == "x" || name == "W" || name == "A" || name == "B" || name == "dy";
}

void check_contract(const Case& c) {
  if (c.family != "lora") throw InputError("case.family: '" + c.family + "' is not lora");
  const std::int64_t T = positive_dim(c, "T"), N = positive_dim(c, "N"), K = positive_dim(c, "K"),
                     r = positive_dim(c, "r");
  for (const auto& [name, v] : c.dims)
    if (name != "T" && name != "N" && name != "K" && name != "r")
      throw InputError("case.dims." + name + ": not a lora dimension (T, N, K, r)");
  if (c.probe_row < 0 || c.probe_row >= T)
    throw InputError("case.probe_row: " + std::to_string(c.probe_row) + " is outside [0, T)");
  for (const auto& [name, l] : c.layouts)
    if (!is_lora_operand(name)) throw InputError("case.layouts." + name + ": not a lora operand");
  for (std::size_t i = 0; i < c.patches.size(); ++i) {
    const Patch& p = c.patches[i];
    const std::string at = "case.patches[" + std::to_string(i) + "]";
    if (!is_lora_operand(p.operand))
      throw InputError(at + ".operand: '" + p.operand + "' is not a lora operand (x, W, A, B, dy)");
    const std::int64_t size = operand_size(p.operand, T, N, K, r);
    if (p.index < 0 || p.index >= size)
      throw InputError(at + ".index: " + std::to_string(p.index) + " is outside " + p.operand + " (" +
                       std::to_string(size) + " elements)");
    if (p.bits > 0xFFFFFFFFull) throw InputError(at + ".bits: not a float32 bit pattern");
    if (p.dtype != DType::f32)
      throw InputError(at + ".dtype: " + std::string(dtype_name(p.dtype)) + ": lora patches are float32 values");
  }
  refuse_unread_fields(c, {.family = "lora", .layouts = true, .probe_row = true, .patches = true});
  refuse_unknown_params(
      c,
      [](const std::string& k) { return k == "alpha" || k == "b_zero" || k == "other_rows" || k == "checked_outputs"; },
      "alpha, b_zero, other_rows, checked_outputs");
  if (c.params.contains("checked_outputs")) {
    const double k = c.params.at("checked_outputs");
    if (!(k >= 1 && k <= 0x1p40 && k == std::floor(k)))
      throw InputError("case.params.checked_outputs: must be an integer in [1, 2^40]");
  }
  if (c.params.contains("other_rows")) {
    const double rows = c.params.at("other_rows");
    if (!(rows >= 1 && rows <= static_cast<double>(kMaxExtent) && rows == std::floor(rows)))
      throw InputError("case.params.other_rows: must be an integer in [1, 2^20]");
  }
  check_limits(c, T, N, K, r);
  const double alpha = c.param("alpha", static_cast<double>(r));
  // The kernels multiply by float(alpha) / float(r): an alpha beyond float32 would make s = inf.
  if (!(std::fabs(alpha) <= static_cast<double>(std::numeric_limits<float>::max())))
    throw InputError("case.params.alpha: must be finite in float32 (|alpha| <= 3.4028235e38), the kernels' dtype");
  flag_param(c, "b_zero");  // 0 or 1, else InputError
}

std::int64_t operand_size(const std::string& operand, std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  if (operand == "x") return T * K;
  if (operand == "W") return N * K;
  if (operand == "A") return r * K;
  if (operand == "B") return N * r;
  return T * N;  // dy
}

LoraProblem materialise(const Case& c) {
  check_contract(c);
  const std::int64_t T = c.dim("T"), N = c.dim("N"), K = c.dim("K"), r = c.dim("r");
  const double alpha = c.param("alpha", static_cast<double>(r));
  const bool b_zero = flag_param(c, "b_zero");

  Tensor x = normal_tensor(DType::bf16, T, K, c.seed, kX, 1.0, kXProbe, c.probe_row);
  Tensor W = normal_tensor(DType::bf16, N, K, c.seed, kW, 1.0 / std::sqrt(static_cast<double>(K)));
  Tensor A = normal_tensor(DType::f32, r, K, c.seed, kA, 1.0 / std::sqrt(static_cast<double>(K)));
  Tensor B = b_zero ? Tensor::zeros(DType::f32, {N, r})
                    : normal_tensor(DType::f32, N, r, c.seed, kB, 1.0 / std::sqrt(static_cast<double>(r)));
  Tensor dy = normal_tensor(DType::bf16, T, N, c.seed, kDy, 1.0, kDyProbe, c.probe_row);
  apply_patches(c, "x", x);
  apply_patches(c, "W", W);
  apply_patches(c, "A", A);
  apply_patches(c, "B", B);
  apply_patches(c, "dy", dy);

  LoraProblem p;
  p.in.x = c.layout("x").place(x);
  p.in.W = c.layout("W").place(W);
  p.in.A = c.layout("A").place(A);
  p.in.B = c.layout("B").place(B);
  p.in.scale = static_cast<float>(alpha) / static_cast<float>(r);
  p.dy = c.layout("dy").place(dy);
  return p;
}

}  // namespace parity::properties::lora
