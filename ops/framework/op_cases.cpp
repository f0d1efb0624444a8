#include <parity/ops/framework/op_cases.hpp>

#include <algorithm>
#include <cmath>

#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity::ops {
namespace {

rc::Gen<std::int64_t> extent_of(const ExtentDecl& e) {
  std::vector<std::int64_t> small, near;
  for (std::int64_t v = e.min; v <= std::min<std::int64_t>(e.min + 7, e.max); ++v) small.push_back(v);
  for (const auto t : e.thresholds)
    for (const auto v : {t, t - 1, t + 1})
      if (v >= e.min && v <= e.max) near.push_back(v);
  // gen::extent draws from [1, max]: shifted to [min, max].
  const auto edge = rc::gen::map(gen::extent(e.max - e.min + 1), [min = e.min](std::int64_t v) { return v + min - 1; });
  if (near.empty()) return rc::gen::weightedOneOf<std::int64_t>({{4, gen::shrinking_element(small)}, {3, edge}});
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, gen::shrinking_element(small)}, {2, edge}, {5, gen::shrinking_element(near)}});
}

// A reach case's extent. One that reaches past its max is in a reach case to go there: max + 1, a
// threshold past max or a neighbour +-1 seven in ten, its reach two in ten, and small (min to
// min + 7) one in ten, a draw that serves only to let the other extents reach further (a few
// rows of the widest width, the most rows of a narrow one). Its thresholds are those past max:
// the ordinary cases draw every threshold up to max and its neighbours already, and a reach case
// exists to draw what they cannot. An extent whose reach is its max draws as an ordinary one:
// small three in ten, a threshold up to max or a neighbour five in ten, max two in ten (without
// such thresholds: small three in five, max two).
rc::Gen<std::int64_t> reach_extent_of(const ExtentDecl& e) {
  const std::int64_t reach = reach_of(e);
  const bool past = reach > e.max;
  const std::int64_t above = past ? e.max : e.min - 1;  // near values start past it
  std::vector<std::int64_t> small, near;
  for (std::int64_t v = e.min; v <= std::min<std::int64_t>(e.min + 7, reach); ++v) small.push_back(v);
  if (past) near.push_back(e.max + 1);
  for (const auto t : e.thresholds)
    for (const auto v : {t, t - 1, t + 1})
      if (v > above && v >= e.min && v <= reach && std::find(near.begin(), near.end(), v) == near.end())
        near.push_back(v);
  if (near.empty())
    return rc::gen::weightedOneOf<std::int64_t>({{3, gen::shrinking_element(small)}, {2, rc::gen::just(reach)}});
  const std::size_t small_weight = past ? 1 : 3, near_weight = past ? 7 : 5;
  return rc::gen::weightedOneOf<std::int64_t>({{small_weight, gen::shrinking_element(small)},
                                               {near_weight, gen::shrinking_element(near)},
                                               {2, rc::gen::just(reach)}});
}

// Row b's length of ragged extent `e` in a case whose value of e is `n`: small (1 to 8) three in
// ten, a threshold of e up to n or a neighbour +-1 five in ten, n itself two in ten (without a
// threshold up to n: small three in five, n two). Shrinks toward 1.
rc::Gen<std::int64_t> length_of(const ExtentDecl& e, std::int64_t n) {
  std::vector<std::int64_t> small, near;
  for (std::int64_t v = 1; v <= std::min<std::int64_t>(8, n); ++v) small.push_back(v);
  for (const auto t : e.thresholds)
    for (const auto v : {t, t - 1, t + 1})
      if (v >= 1 && v <= n) near.push_back(v);
  if (near.empty())
    return rc::gen::weightedOneOf<std::int64_t>({{3, gen::shrinking_element(small)}, {2, rc::gen::just(n)}});
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, gen::shrinking_element(small)}, {5, gen::shrinking_element(near)}, {2, rc::gen::just(n)}});
}

// A real element of t's matrix in `c` (real_element, op_decl.hpp): an index in t's matrix, never
// in a ragged extent's padding.
rc::Gen<std::int64_t> real_index(const OpDecl& d, const TensorDecl& t, const Case& c) {
  const RaggedLengths lengths = case_lengths(d, c);
  return rc::gen::map(rc::gen::inRange<std::int64_t>(0, real_elements_of(d, t, c.dims, lengths)),
                      [d, name = t.name, dims = c.dims, lengths](std::int64_t k) {
                        return real_element(d, d.tensor(name), dims, lengths, k);
                      });
}

// Every row's length of each ragged extent of `d`, drawn anew (length_of).
void draw_lengths(const OpDecl& d, Case& c) {
  for (const auto& e : d.extents)
    for (std::int64_t b = 0; e.ragged && b < c.dims.at(d.row_extent); ++b)
      c.params[ragged_key(e, b)] = static_cast<double>(*length_of(e, c.dims.at(e.name)));
}

// Whether `key` is a row's length of a ragged extent of `d` at or past row `rows`.
bool ragged_key_past(const OpDecl& d, const std::string& key, std::int64_t rows) {
  return std::any_of(d.extents.begin(), d.extents.end(),
                     [&](const ExtentDecl& e) { return row_of_ragged_key(e, key) >= rows; });
}

std::int64_t largest_operand(const OpDecl& d, const std::map<std::string, std::int64_t>& dims) {
  std::int64_t most = 0;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      auto shape = eval_shape(t, dims);
      if (d.has_rows(t)) shape[0] += 1;
      most = std::max(most, elements_of(shape));
    }
  return most;
}

// The work of `dims` with the extra batch row.
std::int64_t taller_work(const OpDecl& d, std::map<std::string, std::int64_t> dims) {
  dims[d.row_extent] += 1;
  return work_of(d, dims);
}

}  // namespace

bool fits(const OpDecl& d, const std::map<std::string, std::int64_t>& dims, std::int64_t max_elements,
          std::int64_t max_work) {
  return largest_operand(d, dims) <= max_elements && taller_work(d, dims) <= max_work;
}

void fit_extents(const OpDecl& d, std::map<std::string, std::int64_t>& dims, std::int64_t max_elements,
                 std::int64_t max_work) {
  const auto too_big = [&] { return !fits(d, dims, max_elements, max_work); };
  // Halves `name` toward `floor` (never below the extent's declared min); false if it cannot move.
  const auto halve = [&](const std::string& name, std::int64_t floor) {
    auto& v = dims[name];
    const std::int64_t to = std::max({d.extent(name).min, floor, v / 2});
    if (to >= v) return false;
    v = to;
    return true;
  };
  // The row extent first down to 2 rows (the row properties need two), then the widest extent
  // (ties: the first name), then the rows down to their min.
  while (too_big() && halve(d.row_extent, 2)) {
  }
  while (too_big()) {
    std::vector<std::pair<std::int64_t, std::string>> widest;
    for (const auto& [name, v] : dims) widest.emplace_back(v, name);
    std::sort(widest.begin(), widest.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    bool shrunk = false;
    for (const auto& [v, name] : widest)
      if ((shrunk = halve(name, 1))) break;
    if (!shrunk) break;
  }
  while (too_big() && halve(d.row_extent, 1)) {
  }
}

namespace {

// f16's special values in the order of gen::special_bits(): +-0, +-1, f16 max, min normal,
// denorm_min, +-Inf, NaN.
rc::Gen<std::uint64_t> f16_special_bits() {
  return gen::shrinking_element<std::uint64_t>(
      {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0x0400, 0x0001, 0x7C00, 0xFC00, 0x7E00});
}

rc::Gen<std::uint64_t> patch_bits_for(DType t) {
  if (t == DType::f16) return f16_special_bits();
  if (t == DType::bf16)
    return rc::gen::map(gen::special_bits(), [](std::uint32_t b) -> std::uint64_t { return b == 1 ? 1 : b >> 16; });
  return rc::gen::cast<std::uint64_t>(gen::patch_bits());
}

// The values of `p` under which every tensor whose dims it orders (TensorDecl::order_param) is a
// contiguous view of a contiguous matrix, its dims in their own order: what a subject that takes
// contiguous tensors only is given. Every value for a parameter that orders no dims; the first
// where none keeps them contiguous.
std::vector<double> values_of_contiguous_views(const OpDecl& d, const ParamDecl& p) {
  std::vector<double> out;
  for (const double v : p.values) {
    bool contiguous = true;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list)
        if (t.order_param == p.name)
          contiguous = contiguous &&
                       std::equal(t.dims.begin() + 1, t.dims.end(), t.orders.at(static_cast<std::size_t>(v)).begin());
    if (contiguous) out.push_back(v);
  }
  return out.empty() ? std::vector<double>{p.values.front()} : out;
}

}  // namespace

rc::Gen<Case> op_case(const OpDecl& d, bool strided_layouts) {
  return rc::gen::exec([d, strided_layouts] {
    Case c;
    c.family = d.name;
    for (const auto& e : d.extents) c.dims[e.name] = *extent_of(e);
    fit_extents(d, c.dims, d.max_elements, d.max_work);
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    std::map<std::string, DType> group;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list)
        if (!group.contains(t.group())) {
          group[t.group()] = *gen::shrinking_element(d.dtypes_of(t.group()));
          c.params["dtype." + t.group()] = dtype_code(group[t.group()]);
        }
    for (const auto& p : d.params)
      c.params[p.name] =
          static_cast<float>(*gen::shrinking_element(strided_layouts ? p.values : values_of_contiguous_views(d, p)));
    for (const auto& t : d.inputs)
      if (t.scales.size() > 1) c.params["scale." + t.name] = *gen::shrinking_element(t.scales);
    for (const auto& t : d.inputs)
      for (std::int64_t b = 0; t.per_row() && b < c.dims.at(d.row_extent); ++b)
        c.params[row_value_key(t, b)] = static_cast<float>(*gen::shrinking_element(t.values));
    draw_lengths(d, c);
    c.probe_row = *rc::gen::inRange<std::int64_t>(0, c.dims.at(d.row_extent));
    std::vector<std::size_t> present;
    for (std::size_t j = 0; j < d.inputs.size(); ++j)
      if (is_present(d.inputs[j], c.params) && !d.inputs[j].per_row()) present.push_back(j);
    if (strided_layouts)
      for (std::size_t j = 0; j < d.inputs.size(); ++j) {
        if (!is_present(d.inputs[j], c.params)) continue;
        const TensorDecl& t = d.inputs[j];
        Layout l = *gen::layout();
        if (t.shape.size() == 1) l.transposed = false;
        if (!l.is_contiguous()) c.layouts[t.name] = l;
      }
    const auto count = *gen::shrinking_element<std::size_t>({0, 1, 2, 3});
    for (std::size_t i = 0; i < count; ++i) {
      const TensorDecl& t = d.inputs[*gen::shrinking_element<std::size_t>(present)];
      const DType dtype = group.at(t.group());
      c.patches.push_back({t.name, *real_index(d, t, c), *patch_bits_for(dtype), dtype});
    }
    // Drawn last, so that every draw above is the same whether or not the case reaches: the
    // ordinary cases are those of the declaration without reach. At the nominal size, so that the
    // rate is the same at every size of a run. A reach case draws its extents
    // anew, fits them to the reach caps, and draws its probe row and patch elements in them.
    if (has_reach(d) && *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, kReachEvery)) == kReachEvery - 1) {
      for (const auto& e : d.extents) c.dims[e.name] = *reach_extent_of(e);
      fit_extents(d, c.dims, reach_elements_of(d), reach_work_of(d));
      c.probe_row = *rc::gen::inRange<std::int64_t>(0, c.dims.at(d.row_extent));
      // Per-row values (TensorDecl::values) for its rows: the ordinary rows' where they remain.
      const std::int64_t rows = c.dims.at(d.row_extent);
      std::erase_if(c.params, [&](const auto& kv) {
        return std::any_of(d.inputs.begin(), d.inputs.end(),
                           [&](const TensorDecl& t) { return row_of_value_key(t, kv.first) >= rows; });
      });
      for (const auto& t : d.inputs)
        for (std::int64_t b = 0; t.per_row() && b < rows; ++b)
          if (!c.params.contains(row_value_key(t, b)))
            c.params[row_value_key(t, b)] = static_cast<float>(*gen::shrinking_element(t.values));
      // Ragged lengths anew, in the reach case's rows and extents.
      std::erase_if(c.params, [&](const auto& kv) { return ragged_key_past(d, kv.first, 0); });
      draw_lengths(d, c);
      for (Patch& p : c.patches) p.index = *real_index(d, d.tensor(p.operand), c);
    }
    return c;
  });
}

rc::Gen<Case> op_case(const OpDef& op, bool strided_layouts) {
  return rc::gen::mapcat(op_case(op.decl, strided_layouts), [op](const Case& c) {
    return rc::gen::map(gen::shrinking_element<int>({0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}), [op, c](int straddles) {
      Case out = c;
      for (Patch& p : straddle_patches(op, c, straddles).patches) out.patches.push_back(std::move(p));
      return out;
    });
  });
}

gen::CaseRules op_rules(const OpDecl& d) {
  return {[d](const Case& c) { check_contract(d, c); },
          [d](Case c) {
            c.probe_row = std::clamp<std::int64_t>(c.probe_row, 0, std::max<std::int64_t>(c.dim(d.row_extent), 1) - 1);
            // An optional input that shrinking made absent takes its layout and patches with it.
            std::erase_if(c.patches, [&](const Patch& p) { return !is_present(d.tensor(p.operand), c.params); });
            std::erase_if(c.layouts, [&](const auto& l) { return !is_present(d.tensor(l.first), c.params); });
            // Rows that shrinking took away take their values with them; a row without one takes
            // the first declared.
            std::erase_if(c.params, [&](const auto& kv) {
              return std::any_of(d.inputs.begin(), d.inputs.end(), [&](const TensorDecl& t) {
                return row_of_value_key(t, kv.first) >= c.dim(d.row_extent);
              });
            });
            for (const auto& t : d.inputs)
              for (std::int64_t b = 0; t.per_row() && b < c.dim(d.row_extent); ++b)
                c.params.try_emplace(row_value_key(t, b), static_cast<float>(t.values.front()));
            // Ragged lengths likewise, each within its extent's (perhaps shrunk) value; a row
            // without one takes 1.
            std::erase_if(c.params, [&](const auto& kv) { return ragged_key_past(d, kv.first, c.dim(d.row_extent)); });
            for (const auto& e : d.extents)
              for (std::int64_t b = 0; e.ragged && b < c.dim(d.row_extent); ++b) {
                double& n = c.params.try_emplace(ragged_key(e, b), 1.0).first->second;
                n = std::clamp(std::nearbyint(n), 1.0, static_cast<double>(std::max<std::int64_t>(c.dim(e.name), 1)));
              }
            // A patch whose element is no longer real (its row's length shrank) moves to a real one.
            for (Patch& p : c.patches) {
              const TensorDecl& t = d.tensor(p.operand);
              p.index %= std::max<std::int64_t>(elements_of(eval_shape(t, c.dims)), 1);
              const RaggedLengths lengths = case_lengths(d, c);
              if (const std::int64_t real = real_elements_of(d, t, c.dims, lengths);
                  real > 0 && !is_real_element(d, t, c.dims, lengths, p.index))
                p.index = real_element(d, t, c.dims, lengths, p.index % real);
            }
            return c;
          }};
}

}  // namespace parity::ops
