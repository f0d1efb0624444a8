#pragma once
// The CUDA side of an op call, driven by the op's declaration (<op>_op.hpp), compiled by nvcc only:
// DeviceCall holds every input the call has on the device and every declared output
// (declared_outputs, host_call.hpp) mirrored there; CudaKernel<Op> is the subject that runs a
// launch on it and copies every output back. An op's .cu holds its __global__ kernel and the
// launch, `make_cuda_kernel() { return cuda_kernel<Op>(arithmetic, [](const DeviceCall& d) {
// rows<<<blocks(d.extent("T")), kLanes>>>(d.in("x"), d.out("y")); }); }`.
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/device_operand.cuh>
#include <parity/ops/kernels/host_call.hpp>

namespace parity::ops::kernels {

// The blocks of `threads` items each that cover `items`, as a grid dimension.
inline unsigned blocks(std::int64_t items, std::int64_t threads = 1) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

// One call on the device: its outputs allocated by declared_outputs; where any has an element,
// every input the call has copied to the device (DeviceInput) and every output mirrored
// (DeviceOutput). A CUDA call that fails throws std::runtime_error "<op> cuda: <call> failed: ...".
class DeviceCall {
 public:
  // Not copied or moved: its device operands keep what_'s characters for their messages.
  DeviceCall(const DeviceCall&) = delete;
  DeviceCall& operator=(const DeviceCall&) = delete;
  DeviceCall(const OpDecl& decl, const OpCall& call)
      : call_(call), what_(decl.name + " cuda"), outputs_(declared_outputs(decl, call)) {
    if (empty()) return;
    for (const TensorDecl& i : decl.inputs)
      if (call.has_input(i.name)) inputs_.try_emplace(i.name, call.input(i.name), what_.c_str());
    for (auto& [name, t] : outputs_) mirrors_.try_emplace(name, t, what_.c_str());
  }

  // No output has an element: nothing to launch.
  bool empty() const { return output_elements(outputs_) == 0; }
  // Throw InputError naming what the call lacks (OpCall's).
  std::int64_t extent(const std::string& name) const { return call_.extent(name); }
  float param(const std::string& name) const { return static_cast<float>(call_.param(name)); }
  // Input `name` as a matrix (DeviceInput::view).
  DeviceView in(const std::string& name) const {
    const auto it = inputs_.find(name);
    if (it != inputs_.end()) return it->second.view();
    call_.input(name);  // throws InputError where the call lacks it
    throw std::logic_error(what_ + ": '" + name + "' is no input of the op's declaration");
  }
  // Input `name` as a rank-4 operand (DeviceInput::view4), whatever its strides: not through in(),
  // whose matrix view refuses dims that do not chain (sdpa's [B, S, H, D] memory order).
  DeviceView4 in4(const std::string& name) const {
    const auto it = inputs_.find(name);
    if (it != inputs_.end()) return it->second.view4();
    call_.input(name);  // throws InputError where the call lacks it
    throw std::logic_error(what_ + ": '" + name + "' is no input of the op's declaration");
  }
  // Whether the call has optional input `name` (TensorDecl::present_if).
  bool has(const std::string& name) const { return inputs_.contains(name); }
  // Optional input `name`'s view, one that reads nothing where the call lacks it (a kernel must
  // not index it then).
  DeviceView optional(const std::string& name) const {
    return has(name) ? in(name) : DeviceView{nullptr, DType::f32, 0, 0, 0};
  }
  DeviceOut out(const std::string& name) const {
    const auto it = mirrors_.find(name);
    if (it == mirrors_.end()) throw std::logic_error(what_ + ": '" + name + "' is no output of the op's declaration");
    return it->second.out();
  }
  // The call itself, for what a launch reads of it beyond these (transition_step's rows).
  const OpCall& call() const { return call_; }
  // Waits for the launches so far and throws naming the op where one failed: before a launch's
  // scratch is freed.
  void synchronize() const { subjects::builtin::cuda::check(cudaDeviceSynchronize(), what_.c_str(), "kernel"); }
  // Checks the launch and copies every output back.
  OpOutputs take_outputs() && {
    for (auto& [name, m] : mirrors_) m.copy_back();
    mirrors_.clear();
    return std::move(outputs_);
  }

 private:
  const OpCall& call_;
  std::string what_;
  OpOutputs outputs_;
  std::map<std::string, DeviceInput> inputs_;
  std::map<std::string, DeviceOutput> mirrors_;
};

// The CUDA kernel of op `Op` as a subject: run() makes a DeviceCall, calls `launch` on it unless
// no output has an element, and returns the outputs copied back. Runs synchronously on the current
// device.
template <class Op>
class CudaKernel : public OpSubject {
 public:
  using Launch = void (*)(const DeviceCall&);
  CudaKernel(Arithmetic arithmetic, Launch launch) : arithmetic_(arithmetic), launch_(launch) {}
  Arithmetic arithmetic() const override { return arithmetic_; }
  OpOutputs run(const OpCall& call) override {
    static const OpDecl decl = Op::declaration();
    DeviceCall d(decl, call);
    if (!d.empty()) launch_(d);
    return std::move(d).take_outputs();
  }

 private:
  Arithmetic arithmetic_;
  Launch launch_;
};

template <class Op>
std::unique_ptr<OpSubject> cuda_kernel(Arithmetic arithmetic, typename CudaKernel<Op>::Launch launch) {
  return std::make_unique<CudaKernel<Op>>(arithmetic, launch);
}

}  // namespace parity::ops::kernels
