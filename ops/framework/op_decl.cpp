#include <parity/ops/framework/op_decl.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

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

std::int64_t work_of(const OpDecl& d, const std::map<std::string, std::int64_t>& extents) {
  return d.work.empty() ? 1 : eval_extent_expr(d.work, extents);
}

const std::vector<DType>& OpDecl::dtypes_of(const std::string& group) const {
  const auto it = group_dtypes.find(group);
  return it == group_dtypes.end() ? dtypes : it->second;
}

void validate(const OpDecl& d) {
  const auto fault = [&](const std::string& why) { throw std::logic_error("op declaration " + d.name + ": " + why); };
  std::set<std::string> names;
  std::map<std::string, std::int64_t> ones, minima;
  for (const auto& e : d.extents) {
    if (!names.insert(e.name).second) fault("duplicate name " + e.name);
    if (e.min < 0 || e.max < e.min || e.limit < e.max) fault("extent " + e.name + " needs 0 <= min <= max <= limit");
    if (e.name == d.row_extent && e.min < 1) fault("the row extent " + e.name + " needs min >= 1");
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
  if (d.oracle_cases < 0) fault("oracle_cases < 0");
}

}  // namespace parity::ops
