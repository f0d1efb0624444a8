#include <parity/ops/framework/op_cases.hpp>

#include <algorithm>

#include <parity/ops/framework/op_problem.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity::ops {
namespace {

rc::Gen<std::int64_t> extent_of(const ExtentDecl& e) {
  std::vector<std::int64_t> small, near;
  for (std::int64_t v = 1; v <= std::min<std::int64_t>(8, e.max); ++v) small.push_back(v);
  for (const auto t : e.thresholds)
    for (const auto v : {t, t - 1, t + 1})
      if (v >= 1 && v <= e.max) near.push_back(v);
  if (near.empty()) return rc::gen::weightedOneOf<std::int64_t>({{4, gen::shrinking_element(small)}, {3, gen::extent(e.max)}});
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, gen::shrinking_element(small)}, {2, gen::extent(e.max)}, {5, gen::shrinking_element(near)}});
}

std::int64_t largest_operand(const OpDecl& d, const std::map<std::string, std::int64_t>& dims) {
  std::int64_t most = 0;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      auto shape = eval_shape(t, dims);
      if (d.has_rows(t)) shape[0] += 1;
      std::int64_t n = 1;
      for (auto s : shape) n *= s;
      most = std::max(most, n);
    }
  return most;
}

// Halves extents, the row extent first, until the largest operand fits.
void fit(const OpDecl& d, std::map<std::string, std::int64_t>& dims) {
  while (largest_operand(d, dims) > d.max_elements || (d.max_work > 0 && work(d, dims) > static_cast<double>(d.max_work))) {
    auto& rows = dims[d.row_extent];
    if (rows > 1) {
      rows = std::max<std::int64_t>(1, rows / 2);
      continue;
    }
    auto widest = std::max_element(dims.begin(), dims.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    widest->second = std::max<std::int64_t>(1, widest->second / 2);
  }
}

rc::Gen<std::uint64_t> patch_bits_for(DType t) {
  if (t == DType::bf16)
    return rc::gen::map(gen::special_bits(), [](std::uint32_t b) -> std::uint64_t { return b == 1 ? 1 : b >> 16; });
  return rc::gen::cast<std::uint64_t>(gen::patch_bits());
}

}  // namespace

rc::Gen<Case> op_case(const OpDecl& d, bool strided_layouts) {
  return rc::gen::exec([d, strided_layouts] {
    Case c;
    c.family = d.name;
    for (const auto& e : d.extents) c.dims[e.name] = *extent_of(e);
    fit(d, c.dims);
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    std::map<std::string, DType> group;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list)
        if (!group.contains(t.group())) {
          group[t.group()] = *gen::shrinking_element(d.dtypes);
          c.params["dtype." + t.group()] = dtype_code(group[t.group()]);
        }
    for (const auto& p : d.params) c.params[p.name] = static_cast<float>(*gen::shrinking_element(p.values));
    for (const auto& t : d.inputs)
      if (t.scales.size() > 1) c.params["scale." + t.name] = *gen::shrinking_element(t.scales);
    c.probe_row = *rc::gen::inRange<std::int64_t>(0, c.dims.at(d.row_extent));
    std::vector<std::size_t> present;
    for (std::size_t j = 0; j < d.inputs.size(); ++j)
      if (is_present(d.inputs[j], c.params)) present.push_back(j);
    if (strided_layouts)
      for (const std::size_t j : present) {
        const TensorDecl& t = d.inputs[j];
        Layout l = *gen::layout();
        if (t.shape.size() == 1) l.transposed = false;
        if (!l.is_contiguous()) c.layouts[t.name] = l;
      }
    const auto count = *gen::shrinking_element<std::size_t>({0, 1, 2, 3});
    for (std::size_t i = 0; i < count; ++i) {
      const TensorDecl& t = d.inputs[*gen::shrinking_element<std::size_t>(present)];
      std::int64_t n = 1;
      for (auto s : eval_shape(t, c.dims)) n *= s;
      c.patches.push_back({t.name, *rc::gen::inRange<std::int64_t>(0, n), *patch_bits_for(group.at(t.group()))});
    }
    return c;
  });
}

gen::CaseRules op_rules(const OpDecl& d) {
  return {[d](const Case& c) { check_contract(d, c); },
          [d](Case c) {
            c.probe_row = std::clamp<std::int64_t>(c.probe_row, 0, std::max<std::int64_t>(c.dim(d.row_extent), 1) - 1);
            // An optional input that shrinking made absent takes its layout and patches with it.
            std::erase_if(c.patches, [&](const Patch& p) { return !is_present(d.tensor(p.operand), c.params); });
            std::erase_if(c.layouts, [&](const auto& l) { return !is_present(d.tensor(l.first), c.params); });
            for (Patch& p : c.patches) {
              std::int64_t n = 1;
              for (auto s : eval_shape(d.tensor(p.operand), c.dims)) n *= s;
              p.index %= std::max<std::int64_t>(n, 1);
            }
            return c;
          }};
}

}  // namespace parity::ops
