#include <parity/ops/torch_op/torch_op.hpp>

#include <mutex>
#include <set>

#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/replay.hpp>

namespace parity::ops {

TorchOpSpec torch_op_spec(const std::string& schema, const std::string& library, const std::string& args,
                          const std::string& device, const std::string& kernel_op) {
  TorchOpSpec spec{.schema = schema, .library = library, .device = device, .kernel_op = kernel_op};
  if (device != "cpu" && device != "cuda") throw InputError("--torch-device: '" + device + "' is neither cpu nor cuda");
  std::size_t begin = 0;
  while (begin < args.size()) {
    const std::size_t end = std::min(args.find(',', begin), args.size());
    const std::string pair = args.substr(begin, end - begin);
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
      throw InputError("--torch-arg: '" + pair + "' is not DECLARED=ARGUMENT (e.g. x=input)");
    if (!spec.args.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second)
      throw InputError("--torch-arg: " + pair.substr(0, eq) + " is mapped twice");
    begin = end + 1;
  }
  return spec;
}

std::string torch_op_subject_name(const TorchOpSpec& spec) {
  return spec.device == "cuda" ? spec.schema + "@cuda" : spec.schema;
}

std::string torch_op_flag_words(const TorchOpSpec& spec) {
  const auto word = [](const std::string& v) {
    if (!v.empty() && v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,@+-") ==
                          std::string::npos)
      return v;
    std::string q = "'";
    for (const char ch : v) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  std::string words = " --torch-op " + word(spec.schema);
  if (!spec.library.empty()) words += " --library " + word(spec.library);
  std::string args;
  for (const auto& [declared, argument] : spec.args) args += (args.empty() ? "" : ",") + declared + "=" + argument;
  if (!args.empty()) words += " --torch-arg " + word(args);
  if (spec.device != "cpu") words += " --torch-device " + spec.device;
  if (!spec.kernel_op.empty()) words += " --kernel-op " + word(spec.kernel_op);
  return words;
}

std::string register_torch_op(const std::string& family, const TorchOpSpec& spec) {
  static std::mutex m;
  static std::set<std::pair<std::string, std::string>> registered;
  std::string ops;
  for (const gen::Family* f : op_families()) {
    ops += (ops.empty() ? "" : ", ") + f->name();
    const auto* op = dynamic_cast<const OpFamily*>(f);
    if (op == nullptr || f->name() != family) continue;
    if (!spec.kernel_op.empty() && spec.kernel_op != family)
      throw InputError("--kernel-op: " + family + " is an op family: the operator is its subject, not a kernel of " +
                       spec.kernel_op);
    const std::string name = torch_op_subject_name(spec);
    std::lock_guard lock(m);
    if (registered.emplace(family, name).second) register_op_subject(family, torch_op_subject(op->def().decl, spec));
    return name;
  }
  // A family whose subjects run ops' kernels (the model's rows): the operator as a kernel of one
  // of those ops, inside the family's subject.
  std::string hosts;
  for (const gen::Family* f : gen::families()) {
    const std::vector<std::string> kernel_ops = f->kernel_ops();
    if (kernel_ops.empty()) continue;
    std::string ops_of;
    for (const std::string& o : kernel_ops) ops_of += (ops_of.empty() ? "" : ", ") + o;
    hosts += (hosts.empty() ? "" : "; ") + f->name() + " (" + ops_of + ")";
    if (f->name() != family) continue;
    const std::string kernel_op = spec.kernel_op.empty() ? kernel_ops.front() : spec.kernel_op;
    try {
      f->require_kernel_op(kernel_op);
    } catch (const InputError& e) {
      throw InputError(std::string("--kernel-op: ") + e.what());
    }
    std::string subject;
    try {  // the family's refusal of the device, before the operator is loaded
      subject = f->subject_with_kernel(kernel_op, torch_op_subject_name(spec), spec.device);
    } catch (const InputError& e) {
      throw InputError(std::string("--torch-device: ") + e.what());
    }
    TorchOpSpec as_kernel = spec;
    as_kernel.kernel_op.clear();
    try {
      register_torch_op(kernel_op, as_kernel);
    } catch (const InputError& e) {
      if (!spec.kernel_op.empty()) throw;
      throw InputError(std::string(e.what()) + " (on " + family + " the operator is a kernel of " + kernel_op +
                       " unless --kernel-op names another of " + ops_of + ")");
    }
    return subject;
  }
  throw InputError("--torch-op: " + family + " is not an op family; a torch operator is a subject of one of: " + ops +
                   ", or a kernel of an op inside the subjects of: " + hosts);
}

namespace {

// The op whose kernel `spec`'s operator is in `subject`, a family's subject that runs it
// ("runtime-host+rms_norm=mylib::rms_norm": "rms_norm"), or "" where it records no such op.
std::string recorded_kernel_op(const std::string& subject, const TorchOpSpec& spec) {
  const std::size_t plus = subject.find('+');
  const std::size_t eq = plus == std::string::npos ? plus : subject.find('=', plus);
  if (eq == std::string::npos || subject.substr(eq + 1) != torch_op_subject_name(spec)) return "";
  return subject.substr(plus + 1, eq - plus - 1);
}

}  // namespace

void register_torch_op_for_reproducers(const std::vector<std::string>& inputs, const TorchOpSpec& spec) {
  for (const auto& file : gen::reproducer_files(inputs)) {
    const Reproducer r = read_reproducer(file);
    TorchOpSpec recorded = spec;
    if (recorded.kernel_op.empty()) recorded.kernel_op = recorded_kernel_op(r.subject, spec);
    register_torch_op(r.failing_case.family, recorded);
  }
}

}  // namespace parity::ops
