// The dispatcher, boxed calls, IValues: with operator_channel.cpp, the torch_op sources that include
// LibTorch.
#include <dlfcn.h>

#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <ATen/ops/empty.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include <parity/core/error.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/torch_op/operator_channel.hpp>
#include <parity/ops/torch_op/torch_op.hpp>
#include <parity/subjects/torch/convert.hpp>

namespace parity::ops {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

// The value one schema argument takes in a call, made from the OpCall.
using ArgumentValue = std::function<c10::IValue(const OpCall&)>;

c10::TypePtr element(const c10::TypePtr& t) {
  if (const auto o = t->cast<c10::OptionalType>()) return o->getElementType();
  return t;
}

bool is_int(const c10::TypePtr& t) {
  return t->kind() == c10::TypeKind::IntType || t->kind() == c10::TypeKind::SymIntType;
}

bool is_int_list(const c10::TypePtr& t) {
  const auto list = t->cast<c10::ListType>();
  return list && is_int(list->getElementType());
}

void load_library(const std::string& path) {
  if (path.empty()) return;
  if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    throw InputError("--library: cannot load " + path + ": " + dlerror());
}

std::string full_name(const c10::OperatorName& op) {
  return op.name + (op.overload_name.empty() ? "" : "." + op.overload_name);
}

// The edit distance between a and b (insertions, deletions, substitutions).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The five operator names of the dispatcher nearest to `name`, for a refusal.
std::string nearest_names(const std::string& name) {
  std::set<std::string> names;
  for (const auto& op : c10::Dispatcher::singleton().getAllOpNames()) names.insert(op.name);
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (const auto& n : names) ranked.emplace_back(edit_distance(name, n), n);
  const std::size_t n = std::min<std::size_t>(5, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end());
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (out.empty() ? "" : ", ") + ranked[i].second;
  return out.empty() ? "none" : out;
}

// The declared names, for messages: "inputs x, w; parameters eps; extents T, D".
std::string declared_names(const OpDecl& decl) {
  const auto list = [](const auto& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i.name;
    return out.empty() ? std::string("none") : out;
  };
  return "inputs " + list(decl.inputs) + "; parameters " + list(decl.params) + "; extents " + list(decl.extents);
}

template <class Items>
bool declares(const Items& items, const std::string& name) {
  for (const auto& i : items)
    if (i.name == name) return true;
  return false;
}

bool declares_any(const OpDecl& decl, const std::string& name) {
  return declares(decl.inputs, name) || declares(decl.params, name) || declares(decl.extents, name);
}

const ParamDecl& param_decl(const OpDecl& decl, const std::string& name) {
  for (const auto& p : decl.params)
    if (p.name == name) return p;
  throw std::logic_error("no parameter " + name);
}

// Whether every value the declaration lets parameter `p` take satisfies `ok`.
template <class Predicate>
bool every_value(const ParamDecl& p, Predicate ok) {
  if (!ok(p.min) || !ok(p.max)) return false;
  for (const double v : p.values)
    if (!ok(v)) return false;
  return true;
}

std::optional<std::int64_t> integer_literal(const std::string& s) {
  std::int64_t v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

std::optional<double> float_literal(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

std::optional<c10::ScalarType> dtype_literal(const std::string& s) {
  static const std::map<std::string, c10::ScalarType> names = {
      {"f32", c10::ScalarType::Float},      {"float32", c10::ScalarType::Float},     {"float", c10::ScalarType::Float},
      {"bf16", c10::ScalarType::BFloat16},  {"bfloat16", c10::ScalarType::BFloat16}, {"f16", c10::ScalarType::Half},
      {"float16", c10::ScalarType::Half},   {"half", c10::ScalarType::Half},         {"f64", c10::ScalarType::Double},
      {"float64", c10::ScalarType::Double}, {"double", c10::ScalarType::Double}};
  const auto it = names.find(s);
  return it == names.end() ? std::nullopt : std::optional(it->second);
}

// Maps one schema's arguments to what an OpCall holds (torch_op.hpp), or throws InputError naming
// the flag and the argument.
// Per return of `schema`, the declared output it is, or "" for one spec.returns ignores ("_"):
// spec.returns where given (one entry per return), else the declared outputs in order, as many as
// it returns. Throws InputError naming --torch-returns for a name that is not a declared output or
// is given twice, a count that is not the schema's, and a return that is not a Tensor; naming
// --torch-op for more returns than outputs without --torch-returns.
std::vector<std::string> map_returns(const OpDecl& decl, const TorchOpSpec& spec, const std::string& name,
                                     const c10::FunctionSchema& schema) {
  const std::size_t n = schema.returns().size();
  std::vector<std::string> out;
  if (spec.returns.empty()) {
    if (n > decl.outputs.size())
      throw InputError("--torch-op: " + name + " returns " + std::to_string(n) + " values, " + decl.name +
                       " declares " + std::to_string(decl.outputs.size()) +
                       " outputs: --torch-returns names the declared output each return is (_ ignores one)");
    for (std::size_t i = 0; i < n; ++i) out.push_back(decl.outputs[i].name);
  } else {
    if (spec.returns.size() != n)
      throw InputError("--torch-returns: names " + std::to_string(spec.returns.size()) + " returns, " + name +
                       " returns " + std::to_string(n));
    for (const auto& r : spec.returns) {
      if (r == "_") {
        out.emplace_back();
        continue;
      }
      if (!declares(decl.outputs, r))
        throw InputError("--torch-returns: " + r + " is not an output of " + decl.name + " (" + declared_names(decl) +
                         ")");
      if (std::find(out.begin(), out.end(), r) != out.end())
        throw InputError("--torch-returns: " + r + " is named twice");
      out.push_back(r);
    }
  }
  const std::string flag = spec.returns.empty() ? "--torch-op: " : "--torch-returns: ";
  if (std::all_of(out.begin(), out.end(), [](const std::string& o) { return o.empty(); }))
    throw InputError(flag + "no return of " + name + " is an output of " + decl.name + ", so nothing could be checked");
  for (std::size_t i = 0; i < n; ++i)
    if (!out[i].empty() && schema.returns()[i].type()->kind() != c10::TypeKind::TensorType)
      throw InputError(flag + name + "'s return " + std::to_string(i) + " is " + schema.returns()[i].type()->str() +
                       ", not the Tensor " + out[i]);
  return out;
}

// The declared outputs that `returns` (map_returns) leaves out, comma-separated; "" for none.
std::string unreturned(const OpDecl& decl, const std::vector<std::string>& returns) {
  std::string out;
  for (const auto& o : decl.outputs)
    if (std::find(returns.begin(), returns.end(), o.name) == returns.end()) out += (out.empty() ? "" : ", ") + o.name;
  return out;
}

class ArgumentMap {
 public:
  ArgumentMap(const OpDecl& decl, const TorchOpSpec& spec, std::string name, const c10::FunctionSchema& schema)
      : decl_(decl), spec_(spec), name_(std::move(name)), schema_(schema) {}

  std::vector<ArgumentValue> map() {
    std::map<std::string, std::string> expression;  // schema argument -> what it takes
    std::set<std::string> placed;                   // declared names --torch-arg puts somewhere
    for (const auto& [key, value] : spec_.args) {
      // DECLARED=ARGUMENT where VALUE is an argument (or KEY is none); else ARGUMENT=VALUE.
      if (declares_any(decl_, key) && (argument(value) || !argument(key))) {
        if (!argument(value)) throw InputError("--torch-arg: " + signature() + " has no argument " + value);
        give(expression, value, key);
        placed.insert(key);
      } else {
        if (!argument(key))
          throw InputError("--torch-arg: " + key + " is neither declared by " + decl_.name + " (" +
                           declared_names(decl_) + ") nor an argument of " + signature());
        give(expression, key, value);
        if (declares_any(decl_, value)) placed.insert(value);
      }
    }
    std::vector<ArgumentValue> values;
    for (const auto& a : schema_.arguments()) {
      std::string what;
      if (const auto it = expression.find(a.name()); it != expression.end()) what = it->second;
      else if (declares_any(decl_, a.name()) && !placed.count(a.name())) what = a.name();
      if (!what.empty()) {
        values.push_back(value_of(a, what));
      } else if (a.default_value()) {
        values.push_back([v = *a.default_value()](const OpCall&) { return v; });
      } else {
        throw InputError("--torch-arg: " + describe(a) + " has no default and no counterpart in " + decl_.name + " (" +
                         declared_names(decl_) + "): give it with --torch-arg " + a.name() + "=VALUE");
      }
    }
    for (const auto& t : decl_.inputs)
      if (!used_.count(t.name))
        throw InputError("--torch-arg: " + decl_.name + "'s input " + t.name + " goes to no argument of " +
                         signature() + ": map it with --torch-arg " + t.name + "=ARGUMENT");
    for (const auto& p : decl_.params)
      if (!used_.count(p.name) && !presence_of_mapped_input(p.name) && !orders_dims(decl_, p.name))
        throw InputError("--torch-arg: " + decl_.name + "'s parameter " + p.name + " goes to no argument of " +
                         signature() + ": map it with --torch-arg " + p.name + "=ARGUMENT");
    for (const auto& e : decl_.extents)  // packed operands cannot be read without their offsets
      if (e.ragged && !used_.count("cu_seqlens(" + e.name + ")"))
        throw InputError("--torch-arg: " + decl_.name + "'s operands are packed along its ragged extent " + e.name +
                         ", whose offsets go to no argument of " + signature() +
                         ": give them with --torch-arg ARGUMENT=cu_seqlens(" + e.name + ")");
    map_returns(decl_, spec_, name_, schema_);
    return values;
  }

  std::string signature() const {
    std::string s;
    for (const auto& a : schema_.arguments()) s += (s.empty() ? "" : ", ") + a.real_type()->str() + " " + a.name();
    return name_ + "(" + s + ")";
  }

 private:
  const c10::Argument* argument(const std::string& name) const {
    for (const auto& a : schema_.arguments())
      if (a.name() == name) return &a;
    return nullptr;
  }

  std::string describe(const c10::Argument& a) const {
    return "argument " + a.name() + " (" + a.real_type()->str() + ") of " + name_;
  }

  void give(std::map<std::string, std::string>& expression, const std::string& argument, const std::string& what) {
    if (!expression.emplace(argument, what).second)
      throw InputError("--torch-arg: argument " + argument + " of " + name_ + " is given twice (" +
                       expression[argument] + " and " + what + ")");
  }

  // A parameter that only says whether an optional input is present, when that input goes to an
  // argument: the argument's None says it.
  bool presence_of_mapped_input(const std::string& param) const {
    for (const auto& t : decl_.inputs)
      if (t.present_if == param && used_.count(t.name)) return true;
    return false;
  }

  [[noreturn]] void cannot(const c10::Argument& a, const std::string& what) const {
    throw InputError("--torch-arg: " + describe(a) + " cannot take " + what);
  }

  // What argument `a` takes from `what`: a declared name or a literal (torch_op.hpp). Its real
  // type: ScalarType and SymInt as themselves, not as the int the dispatcher passes them as.
  ArgumentValue value_of(const c10::Argument& a, const std::string& what) {
    const c10::TypePtr e = element(a.real_type());
    const bool optional = a.real_type()->kind() == c10::TypeKind::OptionalType;
    if (declares(decl_.inputs, what)) {
      used_.insert(what);
      const TensorDecl& t = decl_.tensor(what);
      if (e->kind() != c10::TypeKind::TensorType) cannot(a, decl_.name + "'s input " + what + ", a tensor");
      // An optional input (absent in some cases: linear's bias) needs an optional argument (Tensor?).
      if (!t.present_if.empty() && !optional)
        cannot(a, decl_.name + "'s optional input " + what + " (absent where " + t.present_if +
                      " is 0): it needs the type Tensor?");
      const bool cuda = spec_.device == "cuda";
      return [what, cuda](const OpCall& call) -> c10::IValue {
        if (!call.has_input(what)) return {};  // an absent optional input: None
        const at::Tensor cpu = to_aten(call.input(what));
        if (!cuda) return cpu;
        // On the device, its storage copied whole so strides and offset stay.
        const at::Tensor flat =
            cpu.as_strided({static_cast<std::int64_t>(cpu.storage().nbytes() / cpu.element_size())}, {1}, 0);
        return flat.to(at::kCUDA).as_strided(cpu.sizes(), cpu.strides(), cpu.storage_offset());
      };
    }
    if (declares(decl_.params, what)) {
      used_.insert(what);
      const ParamDecl& p = param_decl(decl_, what);
      if (e->kind() == c10::TypeKind::FloatType)
        return [what](const OpCall& call) -> c10::IValue { return call.param(what); };
      if (is_int(e)) {
        // The contract (check_contract) admits only integers for a parameter whose declared
        // values all are; the bound keeps the cast defined.
        if (!every_value(p, [](double v) { return v == std::nearbyint(v) && std::fabs(v) < 0x1p62; }))
          cannot(a, decl_.name + "'s parameter " + what + ", which takes values that are not integers");
        return [what](const OpCall& call) -> c10::IValue {
          const double v = call.param(what);
          if (v != std::nearbyint(v)) throw InputError("parameter " + what + " = " + std::to_string(v) + " is no int");
          return static_cast<std::int64_t>(v);
        };
      }
      if (e->kind() == c10::TypeKind::BoolType) {
        if (!every_value(p, [](double v) { return v == 0.0 || v == 1.0; }))
          cannot(a, decl_.name + "'s parameter " + what + ", which takes values other than 0 and 1");
        return [what](const OpCall& call) -> c10::IValue {
          const double v = call.param(what);
          if (v != 0.0 && v != 1.0) throw InputError("parameter " + what + " = " + std::to_string(v) + " is no bool");
          return v == 1.0;
        };
      }
      cannot(a, decl_.name + "'s parameter " + what + ", a float");
    }
    if (declares(decl_.extents, what)) {
      used_.insert(what);
      if (is_int(e)) return [what](const OpCall& call) -> c10::IValue { return call.extent(what); };
      if (e->kind() == c10::TypeKind::FloatType)
        return [what](const OpCall& call) -> c10::IValue { return static_cast<double>(call.extent(what)); };
      if (is_int_list(e))
        return [what](const OpCall& call) -> c10::IValue { return std::vector<std::int64_t>{call.extent(what)}; };
      cannot(a, decl_.name + "'s extent " + what + ", an int");
    }
    if (what.starts_with("cu_seqlens(") && what.back() == ')') {
      const std::string extent = what.substr(11, what.size() - 12);
      if (std::none_of(decl_.extents.begin(), decl_.extents.end(),
                       [&](const ExtentDecl& x) { return x.name == extent && x.ragged; }))
        throw InputError("--torch-arg: " + a.name() + "=" + what + ": " + extent + " is not a ragged extent of " +
                         decl_.name);
      if (e->kind() != c10::TypeKind::TensorType) cannot(a, "the offsets " + what + ", an int32 tensor");
      used_.insert(what);
      const bool cuda = spec_.device == "cuda";
      return [extent, cuda](const OpCall& call) -> c10::IValue {
        const std::vector<std::int64_t> cu = call.cu_seqlens(extent);
        at::Tensor t = at::empty({static_cast<std::int64_t>(cu.size())}, at::TensorOptions().dtype(at::kInt));
        std::copy(cu.begin(), cu.end(), t.data_ptr<std::int32_t>());
        return cuda ? t.to(at::kCUDA) : t;
      };
    }
    if (what == "None") {
      if (!optional) cannot(a, "None: it is not optional");
      return [](const OpCall&) { return c10::IValue(); };
    }
    if (what.size() >= 2 && what.front() == '[' && what.back() == ']') {
      if (!is_int_list(e)) cannot(a, "the list " + what);
      return list_of(a, what.substr(1, what.size() - 2));
    }
    if (what == "true" || what == "false" || what == "True" || what == "False") {
      if (e->kind() != c10::TypeKind::BoolType) cannot(a, "the bool " + what);
      const bool v = what == "true" || what == "True";
      return [v](const OpCall&) -> c10::IValue { return v; };
    }
    if (const auto i = integer_literal(what)) {
      if (is_int(e)) return [v = *i](const OpCall&) -> c10::IValue { return v; };
      if (e->kind() == c10::TypeKind::FloatType)
        return [v = static_cast<double>(*i)](const OpCall&) -> c10::IValue { return v; };
      cannot(a, "the int " + what);
    }
    if (const auto f = float_literal(what)) {
      if (e->kind() != c10::TypeKind::FloatType) cannot(a, "the float " + what);
      return [v = *f](const OpCall&) -> c10::IValue { return v; };
    }
    if (const auto dtype = dtype_literal(what)) {
      if (e->kind() != c10::TypeKind::ScalarTypeType) cannot(a, "the dtype " + what);
      return [v = *dtype](const OpCall&) -> c10::IValue { return v; };
    }
    throw InputError("--torch-arg: " + a.name() + "=" + what + ": " + what +
                     " is neither a value (None, true, false, " +
                     "a number, [EXTENT,...], a dtype such as f32) nor declared by " + decl_.name + " (" +
                     declared_names(decl_) + ")");
  }

  // An int list of extents and int literals ("D" or "H, D" or "4, D").
  ArgumentValue list_of(const c10::Argument& a, const std::string& items) {
    std::vector<std::function<std::int64_t(const OpCall&)>> parts;
    std::size_t begin = 0;
    while (begin <= items.size()) {
      const std::size_t end = std::min(items.find(',', begin), items.size());
      std::string item = items.substr(begin, end - begin);
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      if (declares(decl_.extents, item)) {
        used_.insert(item);
        parts.emplace_back([item](const OpCall& call) { return call.extent(item); });
      } else if (const auto i = integer_literal(item)) {
        parts.emplace_back([v = *i](const OpCall&) { return v; });
      } else if (!(item.empty() && parts.empty() && end == items.size())) {
        cannot(a, "the list [" + items + "]: '" + item + "' is neither an int nor an extent of " + decl_.name);
      }
      begin = end + 1;
    }
    return [parts](const OpCall& call) -> c10::IValue {
      std::vector<std::int64_t> v;
      for (const auto& part : parts) v.push_back(part(call));
      return v;
    };
  }

  const OpDecl& decl_;
  const TorchOpSpec& spec_;
  std::string name_;  // with its overload, for messages
  const c10::FunctionSchema& schema_;
  std::set<std::string> used_;
};

// What a subject calls: an operator of this process's dispatcher, or the one at a channel's
// other end (operator_channel.hpp).
struct Callee {
  std::optional<c10::OperatorHandle> handle = {};
  std::shared_ptr<OperatorChannel> channel = {};
  const c10::FunctionSchema& schema() const { return handle ? handle->schema() : channel->schema(); }
  void call(torch::jit::Stack& stack) const {
    if (handle) handle->callBoxed(stack);
    else channel->call(stack);
  }
};

// The operator spec.schema names, with its arguments mapped: the overload named, else the one
// without an overload name, else the one overload whose arguments map; with spec.channel, the
// one the channel's other end serves, which must be of that name.
std::pair<Callee, std::vector<ArgumentValue>> find_and_map(const OpDecl& decl, const TorchOpSpec& spec) {
  const std::size_t ns = spec.schema.find("::");
  if (ns == std::string::npos || ns == 0 || ns + 2 == spec.schema.size())
    throw InputError("--torch-op: '" + spec.schema + "' is not a schema name NAMESPACE::NAME[.OVERLOAD]");
  const std::size_t dot = spec.schema.find('.', ns + 2);
  const std::string name = spec.schema.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : spec.schema.substr(dot + 1);
  if (!spec.channel.empty()) {
    Callee callee{.channel = OperatorChannel::on(std::stoi(spec.channel))};
    const c10::FunctionSchema& schema = callee.schema();
    if (schema.name() != name || (!overload.empty() && schema.overload_name() != overload))
      throw InputError("--torch-channel: the other end serves " + full_name(schema.operator_name()) + ", not " +
                       spec.schema);
    return {callee, ArgumentMap(decl, spec, spec.schema, schema).map()};
  }
  auto& dispatcher = c10::Dispatcher::singleton();
  if (auto handle = dispatcher.findSchema({name, overload}))
    return {Callee{.handle = *handle}, ArgumentMap(decl, spec, spec.schema, handle->schema()).map()};
  std::vector<c10::OperatorName> overloads;
  if (overload.empty())
    for (const auto& op : dispatcher.getAllOpNames())
      if (op.name == name) overloads.push_back(op);
  if (overloads.empty())
    throw InputError("--torch-op: PyTorch's dispatcher has no operator " + spec.schema +
                     (spec.library.empty() ? std::string() : " after loading " + spec.library) +
                     " (the nearest names: " + nearest_names(name) + ")");
  std::sort(overloads.begin(), overloads.end(),
            [](const auto& a, const auto& b) { return a.overload_name < b.overload_name; });
  std::vector<std::pair<Callee, std::vector<ArgumentValue>>> mapped;
  std::string listed, why_not;
  for (const auto& op : overloads) {
    const auto found = dispatcher.findSchema(op);
    if (!found) continue;  // kernels registered, no schema defined: nothing to call
    const c10::OperatorHandle handle = *found;
    ArgumentMap map(decl, spec, full_name(op), handle.schema());
    listed += (listed.empty() ? "" : ", ") + map.signature();
    try {
      mapped.emplace_back(Callee{.handle = handle}, map.map());
    } catch (const InputError& e) {
      why_not += std::string(why_not.empty() ? " (" : "; ") + full_name(op) + ": " + e.what();
    }
  }
  if (mapped.size() == 1) return std::move(mapped.front());
  throw InputError("--torch-op: " + spec.schema + " has the overloads " + listed + "; " +
                   (mapped.empty() ? "the arguments of none map to " + decl.name + why_not + ")"
                                   : "the arguments of more than one map: name one as " + name + ".OVERLOAD"));
}

class TorchOp : public OpSubject {
 public:
  TorchOp(std::shared_ptr<const OpDecl> decl, TorchOpSpec spec, Callee callee, std::vector<ArgumentValue> arguments)
      : decl_(std::move(decl)),
        spec_(std::move(spec)),
        callee_(std::move(callee)),
        arguments_(std::move(arguments)),
        returns_(map_returns(*decl_, spec_, spec_.schema, callee_.schema())) {}

  std::vector<std::string> unchecked_outputs() const override {
    std::vector<std::string> out;
    for (const auto& o : decl_->outputs)
      if (std::find(returns_.begin(), returns_.end(), o.name) == returns_.end()) out.push_back(o.name);
    return out;
  }

  OpOutputs run(const OpCall& call) override {
    c10::InferenceMode no_autograd;
    torch::jit::Stack stack;
    for (const auto& argument : arguments_) stack.push_back(argument(call));
    try {
      callee_.call(stack);
    } catch (const c10::Error& e) {  // its message, without c10's backtrace
      throw std::runtime_error(spec_.schema + ": " + e.what_without_backtrace());
    } catch (const OperatorRaised& e) {  // at a channel's other end
      throw std::runtime_error(spec_.schema + ": " + e.what());
    }
    if (stack.size() != returns_.size())
      throw std::runtime_error(spec_.schema + " returned " + std::to_string(stack.size()) + " values, its schema " +
                               std::to_string(returns_.size()));
    OpOutputs out;
    for (std::size_t i = 0; i < returns_.size(); ++i) {
      if (returns_[i].empty()) continue;  // --torch-returns' "_"
      const TensorDecl& o = *std::find_if(decl_->outputs.begin(), decl_->outputs.end(),
                                          [&](const TensorDecl& t) { return t.name == returns_[i]; });
      if (!stack[i].isTensor()) throw std::runtime_error(spec_.schema + " returned no tensor for " + o.name);
      Tensor t = from_aten(stack[i].toTensor());
      if (t.dtype() != call.output_dtype(o.name))
        throw std::runtime_error(spec_.schema + " returned " + o.name + " as " + std::string(dtype_name(t.dtype())) +
                                 ", the " + decl_->name + " declaration wants " +
                                 std::string(dtype_name(call.output_dtype(o.name))));
      if (const auto shape = subject_shape(o, call); t.shape() != shape)
        throw std::runtime_error(spec_.schema + " returned " + o.name + " as " + shape_text(t.shape()) + ", where " +
                                 decl_->name + " declares " + shape_text(shape));
      out.emplace(o.name, std::move(t));
    }
    return out;
  }

 private:
  std::shared_ptr<const OpDecl> decl_;
  TorchOpSpec spec_;
  Callee callee_;
  std::vector<ArgumentValue> arguments_;
  std::vector<std::string> returns_;  // per return, the declared output it is ("" ignored)
};

}  // namespace

OpSubjectInfo torch_op_subject(const OpDecl& decl, const TorchOpSpec& spec) {
  load_library(spec.library);
  auto [callee, arguments] = find_and_map(decl, spec);
  const bool cuda = spec.device == "cuda";
  OpSubjectInfo info{.name = torch_op_subject_name(spec),
                     .backend = cuda ? kTorchOpCudaBackend : kTorchOpCpuBackend,
                     .description = "the PyTorch operator " + spec.schema + " on " + (cuda ? "CUDA" : "CPU") +
                                    " tensors" + (spec.library.empty() ? "" : " (" + spec.library + ")") +
                                    (spec.channel.empty() ? "" : ", in the process that started this one")};
  if (const std::string unchecked = unreturned(decl, map_returns(decl, spec, spec.schema, callee.schema()));
      !unchecked.empty())
    info.description += "; it returns no " + unchecked + ", which goes unchecked";
  if (cuda)
    info.unavailable_reason = [] {
      return at::globalContext().hasCUDA() ? std::string() : std::string("no CUDA device for PyTorch here");
    };
  info.make = [decl = std::make_shared<const OpDecl>(decl), spec, callee = callee,
               arguments = arguments]() -> std::unique_ptr<OpSubject> {
    return std::make_unique<TorchOp>(decl, spec, callee, arguments);
  };
  return info;
}

std::vector<std::string> torch_op_unreturned(const OpDecl& decl, const TorchOpSpec& spec) {
  load_library(spec.library);
  const auto [callee, arguments] = find_and_map(decl, spec);
  const std::vector<std::string> returns = map_returns(decl, spec, spec.schema, callee.schema());
  std::vector<std::string> out;
  for (const auto& o : decl.outputs)
    if (std::find(returns.begin(), returns.end(), o.name) == returns.end()) out.push_back(o.name);
  return out;
}

OpSubjectInfo torch_op_reference(OpDecl decl, TorchOpSpec spec, std::string description) {
  // Found and mapped at the first question, once: registering costs nothing.
  struct Lazy {
    std::once_flag once;
    std::shared_ptr<const OpDecl> decl;
    TorchOpSpec spec;
    std::optional<Callee> callee;
    std::vector<ArgumentValue> arguments;
    std::string why_not;

    void map() {
      std::call_once(once, [this] {
        try {
          auto [c, a] = find_and_map(*decl, spec);
          callee = std::move(c);
          arguments = std::move(a);
        } catch (const InputError& e) {
          // The refusal as the command line words it, without its flag: no flag was given.
          std::string reason = e.what();
          for (const char* flag : {"--torch-op: ", "--torch-arg: ", "--torch-returns: "})
            if (reason.starts_with(flag)) reason.erase(0, std::string(flag).size());
          why_not = "this LibTorch's " + spec.schema + " cannot be called as " + decl->name + ": " + reason;
        }
      });
    }
  };
  auto lazy = std::make_shared<Lazy>();
  lazy->decl = std::make_shared<const OpDecl>(std::move(decl));
  lazy->spec = std::move(spec);
  // Named by the caller (register_builtin_subjects names it torch-cpu).
  return {.name = {},
          .backend = kTorchOpCpuBackend,
          .description = std::move(description),
          .unavailable_reason =
              [lazy] {
                lazy->map();
                return lazy->why_not;
              },
          .make = [lazy]() -> std::unique_ptr<OpSubject> {
            lazy->map();
            if (!lazy->callee) throw std::logic_error(lazy->why_not);  // made although unavailable
            return std::make_unique<TorchOp>(lazy->decl, lazy->spec, *lazy->callee, lazy->arguments);
          }};
}

}  // namespace parity::ops
