// The only torch_op source that includes LibTorch: the dispatcher, boxed calls, IValues.
#include <dlfcn.h>

#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/core/InferenceMode.h>

#include <set>

#include <parity/core/error.hpp>
#include <parity/ops/torch_op/torch_op.hpp>
#include <parity/subjects/torch/convert.hpp>

namespace parity::ops {
namespace {

using subjects::torch_impl::from_aten;
using subjects::torch_impl::to_aten;

// What one schema argument takes from an OpCall.
struct Source {
  enum Kind { input, param, extent, fallback } kind;
  std::string name;  // the declared name (unused for fallback)
  bool as_int = false;
};

c10::TypePtr element(const c10::TypePtr& t) {
  if (const auto o = t->cast<c10::OptionalType>()) return o->getElementType();
  return t;
}

void load_library(const std::string& path) {
  if (path.empty()) return;
  if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    throw InputError("--library: cannot load " + path + ": " + dlerror());
}

c10::OperatorHandle find_operator(const TorchOpSpec& spec) {
  const std::size_t ns = spec.schema.find("::");
  if (ns == std::string::npos || ns == 0 || ns + 2 == spec.schema.size())
    throw InputError("--torch-op: '" + spec.schema + "' is not a schema name NAMESPACE::NAME[.OVERLOAD]");
  const std::size_t dot = spec.schema.find('.', ns + 2);
  const std::string name = spec.schema.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : spec.schema.substr(dot + 1);
  if (auto handle = c10::Dispatcher::singleton().findSchema({name, overload})) return *handle;
  std::string known;
  for (const auto& op : c10::Dispatcher::singleton().getAllOpNames())
    if (op.name.rfind(spec.schema.substr(0, ns + 2), 0) == 0)
      known += (known.empty() ? "" : ", ") + op.name + (op.overload_name.empty() ? "" : "." + op.overload_name);
  throw InputError("--torch-op: PyTorch's dispatcher has no operator " + spec.schema +
                   (spec.library.empty() ? std::string() : " after loading " + spec.library) +
                   " (its namespace has: " + (known.empty() ? "nothing" : known) + ")");
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

// Which source each schema argument takes, checked against the declaration (torch_op.hpp).
std::vector<Source> map_arguments(const OpDecl& decl, const TorchOpSpec& spec, const c10::FunctionSchema& schema) {
  const std::string what = spec.schema + "(" + [&] {
    std::string s;
    for (const auto& a : schema.arguments()) s += (s.empty() ? "" : ", ") + a.type()->str() + " " + a.name();
    return s;
  }() + ")";
  std::map<std::string, std::string> by_argument;  // schema argument -> declared name
  for (const auto& [declared, argument] : spec.args) {
    if (!declares(decl.inputs, declared) && !declares(decl.params, declared) && !declares(decl.extents, declared))
      throw InputError("--torch-arg: " + decl.name + " declares no " + declared + " (" + declared_names(decl) + ")");
    bool found = false;
    for (const auto& a : schema.arguments()) found = found || a.name() == argument;
    if (!found) throw InputError("--torch-arg: " + what + " has no argument " + argument);
    by_argument[argument] = declared;
  }
  std::vector<Source> sources;
  std::set<std::string> used;
  for (const auto& a : schema.arguments()) {
    std::string declared = a.name();
    if (const auto it = by_argument.find(a.name()); it != by_argument.end()) declared = it->second;
    else if (spec.args.count(declared)) declared.clear();  // mapped elsewhere: this argument has none
    const c10::TypeKind kind = element(a.type())->kind();
    const std::string argument = "argument " + a.name() + " (" + a.type()->str() + ") of " + spec.schema;
    Source s{Source::fallback, declared};
    if (declares(decl.inputs, declared)) {
      if (kind != c10::TypeKind::TensorType)
        throw InputError("--torch-arg: " + argument + " cannot take " + decl.name + "'s input " + declared +
                         ", a tensor");
      // An optional input (absent in some cases: linear's bias) needs an optional argument (Tensor?).
      if (!decl.tensor(declared).present_if.empty() && a.type()->kind() != c10::TypeKind::OptionalType)
        throw InputError("--torch-arg: " + argument + " cannot take " + decl.name + "'s optional input " + declared +
                         " (absent where " + decl.tensor(declared).present_if + " is 0): it needs the type Tensor?");
      s.kind = Source::input;
    } else if (declares(decl.params, declared)) {
      if (kind != c10::TypeKind::FloatType && kind != c10::TypeKind::IntType)
        throw InputError("--torch-arg: " + argument + " cannot take " + decl.name + "'s parameter " + declared +
                         ", a float");
      s = {Source::param, declared, kind == c10::TypeKind::IntType};
    } else if (declares(decl.extents, declared)) {
      if (kind != c10::TypeKind::IntType)
        throw InputError("--torch-arg: " + argument + " cannot take " + decl.name + "'s extent " + declared +
                         ", an int");
      s = {Source::extent, declared, true};
    } else if (!a.default_value()) {
      throw InputError("--torch-arg: " + argument + " has no default and no counterpart in " + decl.name + " (" +
                       declared_names(decl) + "): map one to it with --torch-arg NAME=" + a.name());
    }
    if (s.kind != Source::fallback) used.insert(declared);
    sources.push_back(s);
  }
  for (const auto& t : decl.inputs)
    if (!used.count(t.name))
      throw InputError("--torch-arg: " + decl.name + "'s input " + t.name + " goes to no argument of " + what +
                       ": map it with --torch-arg " + t.name + "=ARGUMENT");
  for (const auto& p : decl.params)
    if (!used.count(p.name))
      throw InputError("--torch-arg: " + decl.name + "'s parameter " + p.name + " goes to no argument of " + what +
                       ": map it with --torch-arg " + p.name + "=ARGUMENT");
  if (schema.returns().size() != decl.outputs.size())
    throw InputError("--torch-op: " + spec.schema + " returns " + std::to_string(schema.returns().size()) +
                     " values, " + decl.name + " declares " + std::to_string(decl.outputs.size()) + " outputs");
  for (std::size_t i = 0; i < schema.returns().size(); ++i)
    if (schema.returns()[i].type()->kind() != c10::TypeKind::TensorType)
      throw InputError("--torch-op: " + spec.schema + "'s return " + std::to_string(i) + " is " +
                       schema.returns()[i].type()->str() + ", not the Tensor " + decl.outputs[i].name);
  return sources;
}

class TorchOp : public OpSubject {
 public:
  TorchOp(const OpDecl& decl, TorchOpSpec spec, c10::OperatorHandle handle, std::vector<Source> sources)
      : decl_(decl), spec_(std::move(spec)), handle_(std::move(handle)), sources_(std::move(sources)) {}

  OpOutputs run(const OpCall& call) override {
    c10::InferenceMode no_autograd;
    torch::jit::Stack stack;
    const auto& arguments = handle_.schema().arguments();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      const Source& s = sources_[i];
      switch (s.kind) {
        case Source::input:
          if (call.has_input(s.name)) stack.emplace_back(on_device(to_aten(call.input(s.name))));
          else stack.emplace_back();  // an absent optional input: None to its Tensor? argument
          break;
        case Source::param:
          if (s.as_int) stack.emplace_back(static_cast<std::int64_t>(call.param(s.name)));
          else stack.emplace_back(call.param(s.name));
          break;
        case Source::extent:
          stack.emplace_back(call.extent(s.name));
          break;
        case Source::fallback:
          stack.push_back(*arguments[i].default_value());
          break;
      }
    }
    handle_.callBoxed(stack);
    OpOutputs out;
    for (std::size_t i = 0; i < decl_.outputs.size(); ++i) {
      const TensorDecl& o = decl_.outputs[i];
      if (!stack[i].isTensor()) throw std::runtime_error(spec_.schema + " returned no tensor for " + o.name);
      Tensor t = from_aten(stack[i].toTensor());
      if (t.dtype() != call.output_dtype(o.name))
        throw std::runtime_error(spec_.schema + " returned " + o.name + " as " + std::string(dtype_name(t.dtype())) +
                                 ", the " + decl_.name + " declaration wants " +
                                 std::string(dtype_name(call.output_dtype(o.name))));
      if (t.shape() != eval_shape(o, call.extents))
        throw std::runtime_error(spec_.schema + " returned " + o.name + " of another shape than " + decl_.name +
                                 " declares");
      out.emplace(o.name, std::move(t));
    }
    return out;
  }

 private:
  // The tensor on the subject's device, its storage copied whole so strides and offset stay.
  at::Tensor on_device(const at::Tensor& cpu) const {
    if (spec_.device != "cuda") return cpu;
    const at::Tensor flat =
        cpu.as_strided({static_cast<std::int64_t>(cpu.storage().nbytes() / cpu.element_size())}, {1}, 0);
    return flat.to(at::kCUDA).as_strided(cpu.sizes(), cpu.strides(), cpu.storage_offset());
  }

  const OpDecl& decl_;
  TorchOpSpec spec_;
  c10::OperatorHandle handle_;
  std::vector<Source> sources_;
};

}  // namespace

OpSubjectInfo torch_op_subject(const OpDecl& decl, const TorchOpSpec& spec) {
  load_library(spec.library);
  c10::OperatorHandle handle = find_operator(spec);
  std::vector<Source> sources = map_arguments(decl, spec, handle.schema());
  const bool cuda = spec.device == "cuda";
  OpSubjectInfo info{.name = torch_op_subject_name(spec),
                     .backend = cuda ? kTorchOpCudaBackend : kTorchOpCpuBackend,
                     .description = "the PyTorch operator " + spec.schema + " on " + (cuda ? "CUDA" : "CPU") +
                                    " tensors" + (spec.library.empty() ? "" : " (" + spec.library + ")")};
  if (cuda)
    info.unavailable_reason = [] {
      return at::globalContext().hasCUDA() ? std::string() : std::string("no CUDA device for PyTorch here");
    };
  info.make = [&decl, spec, handle, sources]() -> std::unique_ptr<OpSubject> {
    return std::make_unique<TorchOp>(decl, spec, handle, sources);
  };
  return info;
}

}  // namespace parity::ops
