#include <parity/families/model/primitive_bound_routines.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/rms_norm_kernels.hpp>
#include <parity/families/model/routines/rope_kernel.hpp>
#include <parity/families/model/routines/sdpa_kernels.hpp>
#include <parity/families/model/routines/swiglu_kernel.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::properties::model {
namespace {

using parity::model::Primitives;
using runtime::Backend;
using Kernel = std::shared_ptr<ops::OpSubject>;

// An op the model's primitives run on, and how its primitives go onto a kernel.
struct PrimitiveOp {
  std::string op;
  std::string backward_op;  // "" where the forward kernel serves the backward (rope)
  // `p` with the op's primitives on `forward`, and its backward on `backward` where that is not
  // null (else p's backward stays).
  std::function<Primitives(Primitives p, const std::string& subject, Kernel forward, Kernel backward)> bind;
};

// A PrimitiveOp::bind that puts the op's primitives on the kernels with `with` (the adapters of
// families/model/routines/<op>_kernel(s).hpp) and, without a backward kernel, keeps p's backward
// primitive `kept`.
template <auto kept>
auto keeping_backward(Primitives (*with)(Primitives, const std::string&, Kernel, Kernel)) {
  return [with](Primitives p, const std::string& subject, Kernel forward, Kernel backward) {
    Primitives out = with(p, subject, std::move(forward), backward);
    if (!backward) out.*kept = p.*kept;
    return out;
  };
}

const std::vector<PrimitiveOp>& table() {
  static const std::vector<PrimitiveOp> all = {
      {"rms_norm", "rms_norm_backward",
       keeping_backward<&Primitives::rms_norm_backward_input>(&parity::model::with_rms_norm_kernels)},
      {"rope", "",
       [](Primitives p, const std::string& subject, Kernel forward, Kernel) {
         return parity::model::with_rope_kernel(std::move(p), subject, std::move(forward));
       }},
      {"swiglu", "swiglu_backward",
       keeping_backward<&Primitives::swiglu_gate_backward>(&parity::model::with_swiglu_kernels)},
      {"sdpa", "sdpa_backward", keeping_backward<&Primitives::sdpa_backward>(&parity::model::with_sdpa_kernels)},
  };
  return all;
}

const PrimitiveOp& entry(const std::string& op) {
  for (const PrimitiveOp& e : table())
    if (e.op == op) return e;
  std::string known;
  for (const std::string& name : primitive_ops()) known += (known.empty() ? "" : ", ") + name;
  throw InputError(op + " is not bound in every routine that runs it (only " + known +
                   "; linear binds at the float32 projections, transition_step at transition_step_logprob)");
}

// The subjects bound for one kernel name: the forward op's, and the backward op's of the same
// name where it is an implementation on the same backend (else nullptr: parity's backward serves).
struct BoundSubjects {
  const ops::OpSubjectInfo* forward = nullptr;
  const ops::OpSubjectInfo* backward = nullptr;
};

BoundSubjects bound_subjects(const PrimitiveOp& e, const std::string& subject, Backend backend) {
  BoundSubjects s{&bindable_subject(e.op, subject, backend), nullptr};
  if (e.backward_op.empty()) return s;
  const ops::OpSubjectInfo* backward = find_op_kernel(e.backward_op, subject);
  if (backward && backward->kind == subjects::SubjectKind::implementation && runtime_backend(*backward) == backend)
    s.backward = backward;
  return s;
}

// Why either kernel cannot run here ("" when both can).
std::string unavailable(const PrimitiveOp& e, const BoundSubjects& s) {
  if (std::string why = kernel_unavailable(e.op, *s.forward); !why.empty()) return why;
  return s.backward ? kernel_unavailable(e.backward_op, *s.backward) : std::string();
}

// parity's primitives of each backend with `e`'s on the subjects' kernels for that backend (on
// the host, a CUDA kernel's host twin).
parity::model::PrimitivesOf bound_primitives(const PrimitiveOp& e, BoundSubjects s) {
  return [&e, s](Backend b) {
    const ops::OpSubjectInfo& forward = kernel_for_backend(e.op, *s.forward, b);
    Kernel backward;
    if (s.backward) backward = make_kernel(e.backward_op, kernel_for_backend(e.backward_op, *s.backward, b));
    return e.bind(parity::model::primitives(b), forward.name, make_kernel(e.op, forward), std::move(backward));
  };
}

// A kernel that counts its calls.
class Counted final : public ops::OpSubject {
 public:
  Counted(std::unique_ptr<ops::OpSubject> kernel, std::shared_ptr<std::atomic<int>> calls)
      : kernel_(std::move(kernel)), calls_(std::move(calls)) {}
  ops::Arithmetic arithmetic() const override { return kernel_->arithmetic(); }
  ops::OpOutputs run(const ops::OpCall& call) override {
    ++*calls_;
    return kernel_->run(call);
  }

 private:
  std::unique_ptr<ops::OpSubject> kernel_;
  std::shared_ptr<std::atomic<int>> calls_;
};

// The model's routines that call `e`'s forward kernel on their self-check example (host), in registration order.
std::vector<std::string> trace(const PrimitiveOp& e) {
  const auto calls = std::make_shared<std::atomic<int>>(0);
  const ops::OpSubjectInfo* found = find_op_kernel(e.op, ops::find_op_family(e.op).default_subject());
  if (!found) throw std::logic_error(e.op + " has no subject " + ops::find_op_family(e.op).default_subject());
  const ops::OpSubjectInfo& own = *found;
  const runtime::RoutineRegistry traced = parity::model::model_routines_on([&e, &own, calls](Backend b) {
    return e.bind(parity::model::primitives(b), own.name, std::make_shared<Counted>(make_kernel(e.op, own), calls),
                  nullptr);
  });
  std::vector<std::string> runs;
  for (const runtime::RoutineInfo& routine : traced.routines()) {
    *calls = 0;
    // parity's own routines on parity's own kernel: a failure is parity's defect, never a routine skipped.
    if (!routine.self_check)
      throw std::logic_error("the model's routine " + routine.name + " has no self-check to trace");
    if (std::string failed = routine.self_check(Backend::host); !failed.empty())
      throw std::logic_error("the model's routine " + routine.name + " failed its self-check while traced: " + failed);
    if (*calls > 0) runs.push_back(routine.name);
  }
  return runs;
}

runtime::RoutineRegistry build(const PrimitiveOp& e, const BoundSubjects& s) {
  const std::vector<std::string>& names = routines_running(e.op);
  const auto runs_op = [&names](const runtime::RoutineInfo& routine) {
    return std::ranges::find(names, routine.name) != names.end();
  };
  return routines_on_kernel(bound_primitives(e, s), runs_op, s.forward->name, [&e, s] { return unavailable(e, s); });
}

}  // namespace

const std::vector<std::string>& primitive_ops() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PrimitiveOp& e : table()) out.push_back(e.op);
    return out;
  }();
  return names;
}

const std::vector<std::string>& routines_running(const std::string& op) {
  static std::mutex m;
  static std::map<std::string, std::vector<std::string>> names;
  const PrimitiveOp& e = entry(op);
  std::lock_guard lock(m);
  auto it = names.find(op);
  if (it == names.end()) it = names.emplace(op, trace(e)).first;
  return it->second;
}

std::vector<BoundKernel> primitive_kernels(const std::string& op) {
  const PrimitiveOp& e = entry(op);
  std::vector<BoundKernel> out;
  for (BoundKernel k : bindable_kernels(op)) {
    const BoundSubjects s = bound_subjects(e, k.name, k.backend);
    if (!e.backward_op.empty())
      k.description += s.backward ? "; the backward on " + e.backward_op + "'s " + k.name
                                  : "; the backward on parity's " + e.backward_op + " (it has no " +
                                        runtime::backend_name(k.backend) + " implementation " + k.name + ")";
    k.unavailable = [&e, s] { return unavailable(e, s); };
    out.push_back(std::move(k));
  }
  return out;
}

const runtime::RoutineRegistry& routines_with_primitive_kernel(const std::string& op, const std::string& subject,
                                                               Backend backend) {
  const PrimitiveOp& e = entry(op);
  const BoundSubjects s = bound_subjects(e, subject, backend);
  return routines_once("primitive:" + op + "=" + subject, [&] { return build(e, s); });
}

}  // namespace parity::properties::model
