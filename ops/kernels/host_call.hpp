#pragma once
// An op call as parity's kernels read it, driven by the op's declaration (<op>_op.hpp): every
// declared output allocated (declared_outputs, which the CUDA side, device_call.cuh, shares) and,
// for a host twin, every input the call has as floats (HostCall). A host twin derives from
// HostTwin<Op, &declared_arithmetic> and writes only its row loop.
// An op's <op>_kernel.cuh is parity's kernel of the op: its arithmetic (PARITY_HD), shared bit for
// bit by the CUDA kernel (<op>.cu, compiled with --fmad=false) and the host twin below it, and the
// CUDA kernel's factory. It hides the host twins, and the includes only they need (this header,
// <vector>, ..., and <op>_op.hpp where the arithmetic does not read it), from nvcc under
// `#if !defined(__CUDACC__)`: the .cu compiles the arithmetic and the factory alone.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>

namespace parity::ops::kernels {

// Each output of `decl`, +0 throughout and contiguous: its dims where it declares them, else its
// shape, over the call's extents, in the dtype the call asks of it. Throws InputError naming a
// missing extent or output dtype (OpCall's, eval_subject_shape's).
inline OpOutputs declared_outputs(const OpDecl& decl, const OpCall& call) {
  OpOutputs outputs;
  for (const TensorDecl& o : decl.outputs)
    outputs.emplace(o.name, Tensor::zeros(call.output_dtype(o.name), eval_subject_shape(o, call.extents)));
  return outputs;
}

// The outputs' element count, all together: 0 where no output has an element (a grid of no blocks
// is no launch).
inline std::int64_t output_elements(const OpOutputs& outputs) {
  std::int64_t n = 0;
  for (const auto& [name, t] : outputs) n += t.numel();
  return n;
}

// One call as a host twin reads it: each input the call has as its logical values in float32
// (host_floats: exact), row-major over its shape or dims; each output of the declaration
// allocated by declared_outputs, written with store (host_io.hpp).
class HostCall {
 public:
  // Throws InputError naming an input whose shape is not its declared one over the call's
  // extents: a twin indexes its floats by those extents.
  HostCall(const OpDecl& decl, const OpCall& call) : call_(call), outputs_(declared_outputs(decl, call)) {
    for (const TensorDecl& i : decl.inputs) {
      if (!call.has_input(i.name)) continue;
      const Tensor& t = call.input(i.name);
      if (t.shape() != eval_subject_shape(i, call.extents))
        throw InputError(decl.name + " host twin: input " + i.name +
                         " is not of its declared shape over the call's extents");
      inputs_.emplace(i.name, host_floats(t));
    }
  }

  // Throw InputError naming what the call lacks (OpCall's).
  std::int64_t extent(const std::string& name) const { return call_.extent(name); }
  float param(const std::string& name) const { return static_cast<float>(call_.param(name)); }
  const std::vector<float>& in(const std::string& name) const {
    const auto it = inputs_.find(name);
    if (it != inputs_.end()) return it->second;
    call_.input(name);  // throws InputError where the call lacks it
    throw std::logic_error("HostCall: '" + name + "' is no input of the op's declaration");
  }
  // Whether the call has optional input `name` (TensorDecl::present_if).
  bool has(const std::string& name) const { return inputs_.contains(name); }
  // Throws std::logic_error for a name the declaration has no output of.
  Tensor& out(const std::string& name) {
    const auto it = outputs_.find(name);
    if (it == outputs_.end()) throw std::logic_error("HostCall: '" + name + "' is no output of the op's declaration");
    return it->second;
  }
  OpOutputs take_outputs() && { return std::move(outputs_); }
  // The call itself, for what a twin reads of it beyond these (sdpa's heads).
  const OpCall& call() const { return call_; }

 private:
  const OpCall& call_;
  std::map<std::string, std::vector<float>> inputs_;
  OpOutputs outputs_;
};

// The host twin of op `Op` (a declaration, <op>_op.hpp): run() reads the call as a HostCall and
// hands it to rows(), which computes every row and stores every element it writes (the rest of
// each output stays +0). Its arithmetic() is `Declared()`, the kernel's declared arithmetic
// (null: the default Arithmetic).
template <class Op, Arithmetic (*Declared)() = nullptr>
class HostTwin : public OpSubject {
 public:
  Arithmetic arithmetic() const override {
    if constexpr (Declared == nullptr) return {};
    else return Declared();
  }
  OpOutputs run(const OpCall& call) final {
    static const OpDecl decl = Op::declaration();
    HostCall c(decl, call);
    rows(c);
    return std::move(c).take_outputs();
  }

 protected:
  virtual void rows(HostCall& c) const = 0;
};

}  // namespace parity::ops::kernels
