#pragma once
// What the model's routines check before taking a call, their self-check, and how they are made.
#include <functional>
#include <string>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/subjects/runtime/routine.hpp>

namespace parity::model {

// The dtypes a routine takes, operand by operand ("" where any dtype would do is not allowed:
// every operand is named). Returns why `call` does not match, or "".
std::string dtype_mismatch(const runtime::BoundaryCall& call, const std::vector<DType>& wanted,
                           const std::vector<std::string>& operand_names);
// Why routines cannot run on `backend` here, or "".
std::string device_mismatch(runtime::Backend backend);

// The first failed requirement on a call's operand shapes, as the routine's reason to refuse it.
class ShapeRules {
 public:
  explicit ShapeRules(const runtime::BoundaryCall& call) : call_(call) {}
  const std::vector<std::int64_t>& shape(std::size_t operand) const { return call_.operands.at(operand).shape; }
  std::int64_t dim(std::size_t operand, std::size_t d) const { return shape(operand).at(d); }
  std::size_t rank(std::size_t operand) const { return shape(operand).size(); }
  std::size_t operands() const { return call_.operands.size(); }
  // Records `text` as the reason unless an earlier rule failed; returns `ok`.
  bool need(bool ok, const std::string& text);
  // Operand `i` has exactly `dims`.
  bool need_shape(std::size_t i, const std::string& name, const std::vector<std::int64_t>& dims);
  const std::string& why() const { return why_; }

 private:
  const runtime::BoundaryCall& call_;
  std::string why_;
};

// What a routine's cannot_take says: the dtype mismatch, else the shape rules' reason, else the
// device's, else "" (it takes the call). `shapes` runs only when the dtypes match.
std::string refusal(const runtime::BoundaryCall& call, runtime::Backend backend, const std::vector<DType>& dtypes,
                    const std::vector<std::string>& operand_names, const std::function<void(ShapeRules&)>& shapes);

// A self-check operand: 0.5 N(0, 1) draws of Philox stream `stream` under a fixed key.
Tensor example_operand(DType dtype, std::vector<std::int64_t> shape, std::uint32_t stream);

// RoutineInfo::make for a routine class constructed from the primitives `of` gives for its backend.
template <class R>
std::function<std::unique_ptr<runtime::Routine>(runtime::Backend)> routine_maker(PrimitivesOf of) {
  return [of = std::move(of)](runtime::Backend backend) -> std::unique_ptr<runtime::Routine> {
    return std::make_unique<R>(of(backend));
  };
}

// A self-check: the routine built on `backend` runs twice on `example()` with the same bits and
// finite outputs, and on cuda gives the host twin's bits. Empty when it passes. With `backward`,
// each run is the forward and then the backward for d_out drawn in each output's shape, and its
// gradients (those the routine returns) are checked with the outputs, so every kernel the routine
// calls backward runs before auto mode binds it.
std::function<std::string(runtime::Backend)> repeatable_self_check(
    std::function<std::unique_ptr<runtime::Routine>(runtime::Backend)> make,
    std::function<std::vector<Tensor>()> example, bool backward);

// The routine `name` of class R (made as routine_maker makes it) for the call kind `kind`: every
// operand float32, named `operand_names` and refused by `shape_rules` (refusal), with a backward
// where `backward` says, and its self-check (with the backward where it has one) on `example()`.
template <class R>
runtime::RoutineInfo f32_routine(const PrimitivesOf& of, std::string name, std::string op, std::string shapes,
                                 std::string kind, std::vector<std::string> operand_names, runtime::OptIn opt_in,
                                 bool backward, void (*shape_rules)(ShapeRules&),
                                 std::function<std::vector<Tensor>()> example) {
  const std::size_t n = operand_names.size();
  return runtime::RoutineInfo{
      std::move(name),
      std::move(op),
      "all f32",
      std::move(shapes),
      {std::move(kind)},
      opt_in,
      backward,
      [n, operand_names, shape_rules](const runtime::BoundaryCall& call, runtime::Backend backend) {
        return refusal(call, backend, std::vector<DType>(n, DType::f32), operand_names, shape_rules);
      },
      routine_maker<R>(of),
      repeatable_self_check(routine_maker<R>(of), std::move(example), backward)};
}

}  // namespace parity::model
