#include <parity/ops/framework/op_decl.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include <parity/core/error.hpp>

namespace parity::ops {
namespace {

template <class T>
const T& find_named(const std::vector<T>& list, const std::string& name, const std::string& what,
                    const std::string& op) {
  for (const auto& e : list)
    if (e.name == name) return e;
  throw InputError(op + ": unknown " + what + " '" + name + "'");
}

}  // namespace

const ExtentDecl& OpDecl::extent(const std::string& n) const { return find_named(extents, n, "extent", name); }
const ParamDecl& OpDecl::param(const std::string& n) const { return find_named(params, n, "parameter", name); }
const TensorDecl& OpDecl::tensor(const std::string& n) const {
  for (const auto* list : {&inputs, &outputs})
    for (const auto& t : *list)
      if (t.name == n) return t;
  throw InputError(name + ": unknown operand '" + n + "'");
}

namespace {

// The value of one product of extent names and integer literals ("B*H", "2*P").
std::int64_t eval_product(const std::string& expr, const std::string& term_expr,
                          const std::map<std::string, std::int64_t>& extents) {
  std::int64_t value = 1;
  std::size_t begin = 0;
  while (begin <= term_expr.size()) {
    const std::size_t end = std::min(term_expr.find('*', begin), term_expr.size());
    const std::string term = term_expr.substr(begin, end - begin);
    if (term.empty()) throw InputError("extent expression '" + expr + "': empty term");
    std::int64_t factor = 0;
    if (const auto it = extents.find(term); it != extents.end()) {
      factor = it->second;
    } else if (term.find_first_not_of("0123456789") == std::string::npos && term.size() < 10) {
      factor = std::stoll(term);
    } else {
      throw InputError("extent expression '" + expr + "': unknown extent '" + term + "'");
    }
    if (factor < 0 || (factor > 0 && value > (std::int64_t{1} << 62) / factor))
      throw InputError("extent expression '" + expr + "': out of range");
    value *= factor;
    begin = end + 1;
  }
  return value;
}

}  // namespace

std::int64_t eval_extent_expr(const std::string& expr, const std::map<std::string, std::int64_t>& extents) {
  std::string spaceless = expr;
  spaceless.erase(std::remove(spaceless.begin(), spaceless.end(), ' '), spaceless.end());
  std::int64_t total = 0;
  std::size_t begin = 0;
  while (begin <= spaceless.size()) {
    const std::size_t end = std::min(spaceless.find('+', begin), spaceless.size());
    const std::int64_t product = eval_product(expr, spaceless.substr(begin, end - begin), extents);
    if (product > (std::int64_t{1} << 62) - total) throw InputError("extent expression '" + expr + "': out of range");
    total += product;
    begin = end + 1;
  }
  return total;
}

std::vector<std::int64_t> eval_shape(const TensorDecl& t, const std::map<std::string, std::int64_t>& extents) {
  std::vector<std::int64_t> shape;
  for (const auto& e : t.shape) shape.push_back(eval_extent_expr(e, extents));
  return shape;
}

std::int64_t elements_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

std::vector<std::int64_t> eval_subject_shape(const TensorDecl& t, const std::map<std::string, std::int64_t>& extents) {
  if (t.dims.empty()) return eval_shape(t, extents);
  std::vector<std::int64_t> shape;
  for (const auto& e : t.dims) shape.push_back(eval_extent_expr(e, extents));
  return shape;
}

bool orders_dims(const OpDecl& d, const std::string& param) {
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list)
      if (t.order_param == param) return true;
  return false;
}

std::int64_t work_of(const OpDecl& d, const std::map<std::string, std::int64_t>& extents) {
  return d.work.empty() ? 1 : eval_extent_expr(d.work, extents);
}

std::int64_t row_of_value_key(const TensorDecl& t, const std::string& key) {
  if (!t.per_row() || !key.starts_with(t.name + ".")) return -1;
  const std::string row = key.substr(t.name.size() + 1);
  if (row.empty() || row.size() > 9 ||
      !std::all_of(row.begin(), row.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return -1;
  const std::int64_t b = std::stoll(row);
  return std::to_string(b) == row ? b : -1;
}

std::int64_t row_of_ragged_key(const ExtentDecl& e, const std::string& key) {
  return e.ragged ? row_of_value_key(TensorDecl{.name = e.name, .values = {1.0}}, key) : -1;
}

const std::vector<DType>& OpDecl::dtypes_of(const std::string& group) const {
  const auto it = group_dtypes.find(group);
  return it == group_dtypes.end() ? dtypes : it->second;
}

namespace {

// Why `t`'s dims do not split its 2-D shape, or "" (OpDecl's validate). The product is compared at
// two assignments of primes to the extents: a check that catches a missing, extra or misspelt
// factor, not a proof of equal polynomials.
std::string dims_fault(const OpDecl& d, const TensorDecl& t) {
  if (t.dims.empty()) return t.order_param.empty() && t.orders.empty() ? "" : "orders without dims";
  if (t.shape.size() != 2 || t.dims.size() < 2 || t.dims.front() != t.shape.front())
    return "dims must start with shape's first and split its second (a 2-D shape)";
  for (const int offset : {0, 4}) {
    static constexpr std::int64_t kPrimes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43};
    std::map<std::string, std::int64_t> at;
    std::size_t i = 0;
    for (const auto& e : d.extents) at[e.name] = kPrimes[(offset + i++) % std::size(kPrimes)];
    std::int64_t product = 1;
    for (std::size_t k = 1; k < t.dims.size(); ++k) product *= eval_extent_expr(t.dims[k], at);
    if (product != eval_extent_expr(t.shape[1], at)) return "the product of dims after the first is not shape's second";
  }
  if (t.order_param.empty() != t.orders.empty()) return "order_param and orders go together";
  if (t.orders.empty()) return "";
  const auto p =
      std::find_if(d.params.begin(), d.params.end(), [&](const ParamDecl& q) { return q.name == t.order_param; });
  if (p == d.params.end()) return "order_param names no parameter";
  for (const double v : p->values)
    if (v != std::nearbyint(v) || v < 0 || v >= static_cast<double>(t.orders.size()))
      return "order_param " + t.order_param + " takes a value that is no index into orders";
  if (p->min < 0 || p->max > static_cast<double>(t.orders.size()) - 1)
    return "order_param " + t.order_param + "'s contract admits values past orders";
  std::vector<std::string> rest(t.dims.begin() + 1, t.dims.end());
  std::sort(rest.begin(), rest.end());
  if (std::adjacent_find(rest.begin(), rest.end()) != rest.end())
    return "dims after the first repeat a name, which orders cannot tell apart";
  for (auto order : t.orders) {
    std::sort(order.begin(), order.end());
    if (order != rest) return "an order is not a permutation of dims after the first";
  }
  return "";
}

// Why ragged extent `e` cannot work in `d` (ExtentDecl::ragged), or "": every operand whose shape
// holds it (its size changes with e's) leads with the row extent and declares dims whose second is
// e alone, with e in no later dim.
std::string ragged_fault(const OpDecl& d, const ExtentDecl& e) {
  if (e.name == d.row_extent) return "the row extent cannot be ragged (the rows are what hold the lengths)";
  if (e.min < 1) return "a ragged extent needs min >= 1 (every row's length is in [1, the extent])";
  for (const auto& t : d.inputs)
    if (t.name == e.name && t.per_row()) return "a per-row input of the same name would share its <name>.<b> keys";
  std::map<std::string, std::int64_t> at, at2;
  for (const auto& x : d.extents) at[x.name] = at2[x.name] = 3;
  at2[e.name] = 5;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      if (eval_shape(t, at) == eval_shape(t, at2)) continue;  // does not hold e
      if (!d.has_rows(t) || t.dims.size() < 2 || t.dims[1] != e.name)
        return t.name + " holds it, but not as the second of dims led by the row extent (" + d.row_extent + ", " +
               e.name + ", ...): only such an operand has a packed form";
      for (std::size_t k = 2; k < t.dims.size(); ++k)
        if (eval_extent_expr(t.dims[k], at) != eval_extent_expr(t.dims[k], at2))
          return t.name + " holds it in a dim after its second";
    }
  return "";
}

}  // namespace

const ExtentDecl* ragged_extent_of(const OpDecl& d, const TensorDecl& t) {
  if (t.dims.size() < 2 || !d.has_rows(t)) return nullptr;
  const auto it = std::find_if(d.extents.begin(), d.extents.end(),
                               [&](const ExtentDecl& e) { return e.ragged && e.name == t.dims[1]; });
  return it == d.extents.end() ? nullptr : &*it;
}

namespace {

// Rows and width of t's matrix in `extents` (a 1-D matrix is one row).
std::pair<std::int64_t, std::int64_t> matrix_rows_width(const TensorDecl& t,
                                                        const std::map<std::string, std::int64_t>& extents) {
  const auto shape = eval_shape(t, extents);
  if (shape.size() < 2) return {1, elements_of(shape)};
  return {shape[0], elements_of(shape) / std::max<std::int64_t>(shape[0], 1)};
}

}  // namespace

std::int64_t real_width(const OpDecl& d, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                        const RaggedLengths& lengths, std::int64_t row) {
  const std::int64_t width = matrix_rows_width(t, extents).second;
  const ExtentDecl* e = ragged_extent_of(d, t);
  if (e == nullptr) return width;
  const std::int64_t n = extents.at(e->name);
  return n == 0 ? 0 : width / n * lengths.at(e->name).at(static_cast<std::size_t>(row));
}

std::int64_t real_elements_of(const OpDecl& d, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                              const RaggedLengths& lengths) {
  const auto [rows, width] = matrix_rows_width(t, extents);
  if (ragged_extent_of(d, t) == nullptr) return rows * width;
  std::int64_t n = 0;
  for (std::int64_t r = 0; r < rows; ++r) n += real_width(d, t, extents, lengths, r);
  return n;
}

std::int64_t real_element(const OpDecl& d, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                          const RaggedLengths& lengths, std::int64_t k) {
  const auto [rows, width] = matrix_rows_width(t, extents);
  if (ragged_extent_of(d, t) == nullptr) return k;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t w = real_width(d, t, extents, lengths, r);
    if (k < w) return r * width + k;
    k -= w;
  }
  throw std::out_of_range("real_element: past " + t.name + "'s real elements");
}

bool is_real_element(const OpDecl& d, const TensorDecl& t, const std::map<std::string, std::int64_t>& extents,
                     const RaggedLengths& lengths, std::int64_t index) {
  if (ragged_extent_of(d, t) == nullptr) return true;
  const std::int64_t width = matrix_rows_width(t, extents).second;
  return index % width < real_width(d, t, extents, lengths, index / width);
}

bool has_reach(const OpDecl& d) {
  return reach_work_of(d) > d.max_work || reach_elements_of(d) > d.max_elements ||
         std::any_of(d.extents.begin(), d.extents.end(), [](const ExtentDecl& e) { return reach_of(e) > e.max; });
}

OpDecl without_reach(OpDecl d) {
  for (auto& e : d.extents) e.reach = e.max;
  d.reach_work = d.max_work;
  d.reach_elements = d.max_elements;
  return d;
}

void validate(const OpDecl& d) {
  const auto fault = [&](const std::string& why) { throw std::logic_error("op declaration " + d.name + ": " + why); };
  std::set<std::string> names;
  std::map<std::string, std::int64_t> ones, minima;
  for (const auto& e : d.extents) {
    if (!names.insert(e.name).second) fault("duplicate name " + e.name);
    if (e.name == kReachElementsCap || e.name == kReachWorkCap) fault("an extent may not be named " + e.name);
    if (e.min < 0 || e.max < e.min || e.limit < e.max) fault("extent " + e.name + " needs 0 <= min <= max <= limit");
    if (e.name == d.row_extent && e.min < 1) fault("the row extent " + e.name + " needs min >= 1");
    if (e.reach != 0 && (e.reach < e.max || e.reach > e.limit))
      fault("extent " + e.name + " needs max <= reach <= limit (or reach 0)");
    ones[e.name] = 1;
    minima[e.name] = e.min;
  }
  bool row_led = false;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      if (!names.insert(t.name).second) fault("duplicate name " + t.name);
      if (t.shape.empty() || t.shape.size() > 2) fault(t.name + ": operands have rank 1 or 2");
      try {
        eval_shape(t, ones);
        // An extent of min 0 may only add to a dim (rope's "H*2*P+H*Q"): every operand keeps an
        // element at the extents' minima, which the generators and kernels rely on.
        for (const std::int64_t n : eval_shape(t, minima))
          if (n < 1)
            fault(t.name + ": empty when every extent is at its min (an extent of min 0 may only add to a dim)");
      } catch (const InputError& e) {
        fault(t.name + ": " + e.what());
      }
      if (list == &d.inputs && d.has_rows(t) && t.present_if.empty()) row_led = true;
      if (!t.present_if.empty() &&
          (list != &d.inputs ||
           std::none_of(d.params.begin(), d.params.end(), [&](const ParamDecl& p) { return p.name == t.present_if; })))
        fault(t.name + ": present_if names no parameter, or the operand is an output");
      if (t.scales.empty()) fault(t.name + ": no scales");
      if (t.per_row() &&
          (list != &d.inputs || t.shape != std::vector<std::string>{d.row_extent} || !t.present_if.empty() ||
           !t.dims.empty() || d.dtypes_of(t.group()) != std::vector{DType::f32}))
        fault(t.name + ": a per-row input is an always-present input [row extent] whose dtype group takes f32 alone");
      if (t.per_row() && t.scales.size() > 1)
        fault(t.name + ": a per-row input takes its values, not scales (one scale, unused)");
      for (const double v : t.values)
        if (!(static_cast<float>(v) >= t.min && static_cast<float>(v) <= t.max))
          fault(t.name + ": a per-row value outside [min, max]");
      try {
        if (const std::string why = dims_fault(d, t); !why.empty()) fault(t.name + ": " + why);
      } catch (const InputError& e) {
        fault(t.name + ": dims: " + e.what());
      }
    }
  if (!ones.contains(d.row_extent) || !row_led) fault("no input leads with the row extent '" + d.row_extent + "'");
  for (const auto& r : d.reduced_extents) {
    if (!ones.contains(r)) fault("unknown reduced extent " + r);
    if (minima[r] < 1) fault("the reduced extent " + r + " needs min >= 1 (a mean over no terms has no value)");
  }
  for (const auto& p : d.params)
    if (p.values.empty() || !names.insert(p.name).second) fault("parameter " + p.name + ": no values or a duplicate");
  if (d.dtypes.empty()) fault("no dtypes");
  for (const auto& [group, list] : d.group_dtypes) {
    bool named = false;
    for (const auto* tensors : {&d.inputs, &d.outputs})
      for (const auto& t : *tensors) named = named || t.group() == group;
    if (!named || list.empty()) fault("group_dtypes: " + group + " is no operand's dtype group, or has no dtypes");
  }
  try {
    work_of(d, ones);
  } catch (const InputError& e) {
    fault(std::string("work: ") + e.what());
  }
  if (d.max_work < 1) fault("max_work < 1");
  if (d.reach_work != 0 && d.reach_work < d.max_work) fault("reach_work < max_work (0 means max_work)");
  if (d.reach_elements != 0 && d.reach_elements < d.max_elements)
    fault("reach_elements < max_elements (0 means max_elements)");
  if (reach_elements_of(d) > kElementsLimit || reach_work_of(d) > kWorkLimit)
    fault("reach_elements or reach_work (max_elements or max_work where 0) past kElementsLimit or kWorkLimit");
  if (d.oracle_cases < 0) fault("oracle_cases < 0");
  for (const auto& e : d.extents)
    if (e.ragged)
      if (const std::string why = ragged_fault(d, e); !why.empty()) fault("ragged extent " + e.name + ": " + why);
}

}  // namespace parity::ops
