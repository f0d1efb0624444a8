#include <parity/fuzz/decode_op.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

#include <parity/core/bf16.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tensor.hpp>
#include <parity/fuzz/byte_reader.hpp>
#include <parity/fuzz/fuzz_values.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/cross_backend/cross_backend.hpp>

namespace parity::fuzz {
namespace {

const ops::OpSubjectInfo& subject_info(const std::string& op, const std::string& subject) {
  ops::find_op_family(op).subjects();  // registers the op's own subjects
  for (const auto& s : ops::op_subjects(op))
    if (s.name == subject) return s;
  throw InputError("op " + op + " has no subject '" + subject + "'");
}

std::int64_t decode_extent(ByteReader& in, const ops::ExtentDecl& e) {
  const std::uint8_t b0 = in.u8(), b1 = in.u8();
  if (b0 < 192) return std::min(e.max, e.min + b1 % 16);
  std::vector<std::int64_t> sizes;
  for (const auto t : e.thresholds) sizes.push_back(t);
  for (std::int64_t p = 16; p <= e.max; p *= 2) sizes.push_back(p);
  if (sizes.empty()) sizes.push_back(e.max);
  const std::int64_t v = sizes[(b1 / 3) % sizes.size()] + b1 % 3 - 1;
  return std::clamp(v, e.min, e.max);
}

}  // namespace

const std::vector<std::string>& op_fuzz_ops() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const gen::Family* f : ops::op_families()) out.push_back(f->name());
    return out;
  }();
  return names;
}

namespace {

std::uint8_t slot_hash(const std::string& name) {
  std::uint32_t h = 2166136261u;  // FNV-1a, 32 bits
  for (const unsigned char ch : name) h = (h ^ ch) * 16777619u;
  return static_cast<std::uint8_t>(h & 0xFFu);
}

// The op holding each byte value ("" for none).
const std::array<std::string, 256>& slots() {
  static const std::array<std::string, 256> table = [] {
    std::array<std::string, 256> out;
    if (op_fuzz_ops().size() > out.size()) throw std::logic_error("op_fuzzer: more than 256 ops");
    for (const std::string& op : op_fuzz_ops()) {
      std::uint8_t s = slot_hash(op);
      while (!out[s].empty()) ++s;  // wraps at 256
      out[s] = op;
    }
    return out;
  }();
  return table;
}

}  // namespace

std::uint8_t op_slot(const std::string& op) {
  const auto& table = slots();
  const auto it = std::find(table.begin(), table.end(), op);
  if (op.empty() || it == table.end()) throw InputError("op_fuzzer: no op " + op);
  return static_cast<std::uint8_t>(it - table.begin());
}

const std::string& op_of_byte(std::uint8_t b, const std::vector<std::string>& ops) {
  if (ops.empty()) throw std::logic_error("op_fuzzer: no ops to name");
  const std::string& held = slots()[b];
  if (!held.empty() && std::find(ops.begin(), ops.end(), held) != ops.end()) return held;
  return ops[b % ops.size()];
}

std::vector<std::string> op_fuzz_properties(const std::string& op, const std::string& subject) {
  const ops::OpSubjectInfo& info = subject_info(op, subject);
  std::vector<std::string> out = {"repeatable", "rows_independent", "batch_vs_batch"};
  if (info.capabilities.strided_layouts) out.push_back("layout_invariant");
  out.push_back("forward_accuracy");
  if (!info.host_twin.empty()) out.push_back(properties::cross_backend::kProperty);
  return out;
}

FuzzInput decode_op(std::span<const std::uint8_t> bytes, const std::string& op, const std::string& subject) {
  ByteReader in(bytes);
  in.u8();  // the op, chosen by the harness
  const ops::OpFamily& family = ops::find_op_family(op);
  const ops::OpDecl& d = family.def().decl;
  const auto properties = op_fuzz_properties(op, subject);
  const bool strided = subject_info(op, subject).capabilities.strided_layouts;

  FuzzInput out;
  out.property = properties[in.u8() % properties.size()];
  Case& c = out.c;
  c.family = op;
  for (const auto& e : d.extents) c.dims[e.name] = decode_extent(in, e);
  ops::fit_extents(d, c.dims, std::min(kOpFuzzElements, d.max_elements), d.max_work);
  std::map<std::string, DType> group;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list)
      if (!group.contains(t.group())) {
        const std::vector<DType>& allowed = d.dtypes_of(t.group());
        group[t.group()] = allowed[in.u8() % allowed.size()];
        c.params["dtype." + t.group()] = ops::dtype_code(group[t.group()]);
      }
  for (const auto& p : d.params) c.params[p.name] = static_cast<float>(p.values[in.u8() % p.values.size()]);
  for (const auto& t : d.inputs)
    if (t.scales.size() > 1) c.params["scale." + t.name] = t.scales[in.u8() % t.scales.size()];
  for (const auto& t : d.inputs)  // a byte a row (past the end 0: the first declared value)
    for (std::int64_t b = 0; t.per_row() && b < c.dims.at(d.row_extent); ++b)
      c.params[ops::row_value_key(t, b)] = static_cast<float>(t.values[in.u8() % t.values.size()]);
  for (const auto& e : d.extents)  // a ragged extent: a byte a row (two past 256), its length in [1, the extent]
    for (std::int64_t b = 0; e.ragged && b < c.dims.at(d.row_extent); ++b) {
      const std::int64_t n = c.dims.at(e.name);
      c.params[ops::ragged_key(e, b)] = static_cast<double>(1 + (n > 256 ? in.u16() : in.u8()) % n);
    }
  c.probe_row = in.u16() % c.dims.at(d.row_extent);
  for (const auto& t : d.inputs) {
    Layout l = decode_layout(in.u8());
    if (t.shape.size() == 1) l.transposed = false;
    if (strided && !l.is_contiguous() && ops::is_present(t, c.params))
      c.layouts[t.name] = l;  // none for an absent input
  }
  c.seed = in.u64();
  const int straddles = in.u8() % 9;
  const ops::RaggedLengths lengths = ops::case_lengths(d, c);
  std::vector<std::int64_t> sizes;  // each input's real elements (op_decl.hpp, real_element)
  for (const auto& t : d.inputs)
    sizes.push_back(std::max<std::int64_t>(ops::real_elements_of(d, t, c.dims, lengths), 1));
  while (c.patches.size() < kOpFuzzPatches && in.remaining() >= 9) {
    const std::size_t k = in.u8() % d.inputs.size();
    const std::int64_t index =
        ops::real_element(d, d.inputs[k], c.dims, lengths, static_cast<std::int64_t>(in.u24()) % sizes[k]);
    const std::uint32_t bits = decode_float_bits(in);
    const DType dt = group.at(d.inputs[k].group());
    if (!ops::is_present(d.inputs[k], c.params) || d.inputs[k].per_row())
      continue;  // an absent optional input, or values the Case holds: its bytes spent, no patch
    Tensor one = Tensor::zeros(dt, {1});
    if (dt == DType::f32) one.set_bits(0, bits);  // every float32 pattern, NaN payloads too
    else one.set_value(0, bits_float(bits));
    c.patches.push_back({d.inputs[k].name, index, one.bits_at(0), dt});
  }
  for (Patch& p : ops::straddle_patches(family.def(), c, straddles, kOpFuzzStraddleBudget).patches)
    c.patches.push_back(std::move(p));
  return out;
}

}  // namespace parity::fuzz
