#pragma once
// The kernels the kernel-binding tests register: parity's host kernel of an op inside a subject
// that counts or records its calls, or changes its outputs as a plan chosen from the call would.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/op_families.hpp>

namespace parity {

// A fresh parity-host subject of the op `op`; std::logic_error when it has none.
inline std::unique_ptr<ops::OpSubject> paritys_kernel(const std::string& op) {
  for (const auto& s : ops::find_op_family(op).infos())
    if (s.name == "parity-host") return s.make();
  throw std::logic_error("no " + op + " parity-host");
}

// parity's kernel of `op` (made with this subject): `before` sees each call before the kernel runs
// it (to count or record it), `after` the call and the kernel's outputs, which it may change. It
// declares the default arithmetic (any reduction order), not the kernel's own.
class WrappedKernel final : public ops::OpSubject {
 public:
  using Before = std::function<void(const ops::OpCall&)>;
  using After = std::function<void(const ops::OpCall&, ops::OpOutputs&)>;

  explicit WrappedKernel(const std::string& op, Before before = {}, After after = {})
      : kernel_(paritys_kernel(op)), before_(std::move(before)), after_(std::move(after)) {}
  ops::OpOutputs run(const ops::OpCall& call) override {
    if (before_) before_(call);
    ops::OpOutputs out = kernel_->run(call);
    if (after_) after_(call, out);
    return out;
  }

 private:
  std::unique_ptr<ops::OpSubject> kernel_;
  Before before_;
  After after_;
};

// An `after` that rounds the output `output` through bf16 in the calls `when` picks.
inline WrappedKernel::After bf16_when(std::string output, std::function<bool(const ops::OpCall&)> when) {
  return [output = std::move(output), when = std::move(when)](const ops::OpCall& call, ops::OpOutputs& out) {
    if (!when(call)) return;
    Tensor& t = out.at(output);
    for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, round_through_bf16(static_cast<float>(t.value_at(i))));
  };
}

// The host subject `name` of an op, made as WrappedKernel(op, before, after).
inline ops::OpSubjectInfo wrapped_kernel(std::string name, std::string description, std::string op,
                                         WrappedKernel::Before before, WrappedKernel::After after = {}) {
  return {.name = std::move(name), .backend = "host", .description = std::move(description), .make = [=] {
            return std::unique_ptr<ops::OpSubject>(std::make_unique<WrappedKernel>(op, before, after));
          }};
}

}  // namespace parity
