#pragma once
// A subject of an op: a kernel that takes the op's declared inputs (parity Tensors of the
// declared shapes, or dims where declared (op_decl.hpp: sdpa's [B, H, S, D]), and dtypes, any
// strides and offsets unless its capabilities say otherwise) and parameters, and returns its
// declared outputs, of those shapes or dims in any strides. One interface for every op; a subject says
// which op it implements when it registers:
//
//   PARITY_REGISTER_OP_SUBJECT(my_norm, "rms_norm", parity::ops::OpSubjectInfo{
//       .name = "my-rms-norm", .backend = "host", .description = "my RMSNorm",
//       .make = [] { return std::make_unique<MyNorm>(); }});
//
// Registration comes before the op's subject list is first read (`parity list`, a property run):
// the list is fixed from then on. PARITY_REGISTER_OP_SUBJECT registers during static
// initialisation, which always comes first, provided the object file that holds it is linked: a
// static library drops unreferenced object files, so link such a library whole-archive
// (parity_add_subject_tests does). The contract of subjects/subject_info.hpp holds: stateless
// across calls.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/subjects/subject_info.hpp>

namespace parity::ops {

struct OpCall {
  std::map<std::string, std::int64_t> extents;
  std::map<std::string, Tensor> inputs;        // every input the case has (absent optional ones missing)
  std::map<std::string, double> params;        // float32 values
  std::map<std::string, DType> output_dtypes;  // the dtype each output must have
  // Each ragged extent's lengths (op_decl.hpp, ExtentDecl::ragged), one per row: row b's in
  // [1, extent(name)]. A subject's operands that hold that extent are packed (op_view.hpp).
  std::map<std::string, std::vector<std::int64_t>> lengths = {};

  // Throw InputError naming what is missing.
  std::int64_t extent(const std::string& name) const;
  const Tensor& input(const std::string& name) const;
  bool has_input(const std::string& name) const { return inputs.contains(name); }  // an optional input
  double param(const std::string& name) const;
  DType output_dtype(const std::string& name) const;
  // The offsets of the rows' sequences along ragged extent `name` in a packed operand:
  // FlashAttention's cu_seqlens, rows + 1 of them, 0 first and the packed total last. Throws
  // InputError where `name` is not a ragged extent of the call.
  std::vector<std::int64_t> cu_seqlens(const std::string& name) const;
};

// Each declared output (but the subject's unchecked_outputs), contiguous or not, of its declared
// shape (its dims where declared) and dtype.
using OpOutputs = std::map<std::string, Tensor>;

class OpSubject {
 public:
  virtual ~OpSubject() = default;
  // What the subject promises about its arithmetic, for its derived bounds (arithmetic.hpp).
  virtual Arithmetic arithmetic() const { return {}; }
  // Declared outputs this subject does not return (a PyTorch operator that returns fewer,
  // --torch-returns): run() leaves them out, and the properties check the others. Empty: every one.
  virtual std::vector<std::string> unchecked_outputs() const { return {}; }
  virtual OpOutputs run(const OpCall& call) = 0;
};

// Capabilities used: strided_layouts (false: contiguous operands only, in the dims' own memory
// order where an op declares dims; layout_invariant does not apply). host_twin names the subject of the same op whose
// bits this one must equal.
using OpSubjectInfo = subjects::SubjectInfo<OpSubject>;

// A new `Subject`, as OpSubjectInfo::make: `.make = &make_op_subject<MyNorm>`.
template <class Subject>
std::unique_ptr<OpSubject> make_op_subject() {
  return std::make_unique<Subject>();
}

// A subject that is the function `Run` alone (stateless, the default arithmetic), made as
// `&make_op_subject<RunSubject<&my_run>>`.
template <OpOutputs (*Run)(const OpCall&)>
class RunSubject final : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override { return Run(call); }
};

// Registers `info` as a subject of op `op`. Throws InputError for an empty or taken name or an
// empty make, std::logic_error once that op's list has been read.
void register_op_subject(const std::string& op, OpSubjectInfo info);
// Registers a host mismatch probe of `op` (subjects::SubjectKind::probe) made as a `Probe`.
template <class Probe>
void register_host_probe(const std::string& op, std::string name, std::string description) {
  register_op_subject(op, OpSubjectInfo{.name = std::move(name),
                                        .backend = "host",
                                        .kind = subjects::SubjectKind::probe,
                                        .description = std::move(description),
                                        .make = &make_op_subject<Probe>});
}
// The host mismatch probes of `op`, each a Host<Policy>: one object per op, its add<Policy> per probe
// (`const HostProbes<LinearHost> probes{"linear"}; probes.add<SplitK>("probe-split-k", "...");`).
// A probe is the op's host twin with one realistic step changed (its Policy), which the generic
// properties must catch (`parity probes OP`); it inherits the twin's declared arithmetic: a probe
// that breaks that promise is exactly what must be caught.
template <template <class> class Host>
struct HostProbes {
  std::string op;
  template <class Policy>
  void add(std::string name, std::string description) const {
    register_host_probe<Host<Policy>>(op, std::move(name), std::move(description));
  }
};
// The subjects of `op` in registration order; fixes its list.
const std::vector<OpSubjectInfo>& op_subjects(const std::string& op);

}  // namespace parity::ops

#define PARITY_REGISTER_OP_SUBJECT(id, op, ...)                                                                        \
  namespace {                                                                                                          \
  [[maybe_unused]] const bool parity_op_registered_##id = (::parity::ops::register_op_subject(op, __VA_ARGS__), true); \
  }
