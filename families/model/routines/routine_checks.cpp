#include <parity/families/model/routines/routine_checks.hpp>

#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::model {

std::string dtype_mismatch(const runtime::BoundaryCall& call, const std::vector<DType>& wanted,
                           const std::vector<std::string>& names) {
  if (call.operands.size() != wanted.size())
    return "it takes " + std::to_string(wanted.size()) + " operands, the call has " +
           std::to_string(call.operands.size());
  for (std::size_t i = 0; i < wanted.size(); ++i)
    if (call.operands[i].dtype != wanted[i])
      return "operand " + names[i] + " is " + std::string(dtype_name(call.operands[i].dtype)) + ", the routine takes " +
             std::string(dtype_name(wanted[i]));
  return "";
}

bool ShapeRules::need(bool ok, const std::string& text) {
  if (!ok && why_.empty()) why_ = "shape: " + text;
  return ok;
}

bool ShapeRules::need_shape(std::size_t i, const std::string& name, const std::vector<std::int64_t>& dims) {
  return need(shape(i) == dims, name + " is " + shape_text(shape(i)) + ", the routine needs " + shape_text(dims));
}

std::string refusal(const runtime::BoundaryCall& call, runtime::Backend backend, const std::vector<DType>& dtypes,
                    const std::vector<std::string>& operand_names, const std::function<void(ShapeRules&)>& shapes) {
  if (std::string why = dtype_mismatch(call, dtypes, operand_names); !why.empty()) return why;
  ShapeRules rules(call);
  shapes(rules);
  if (!rules.why().empty()) return rules.why();
  return device_mismatch(backend);
}

Tensor example_operand(DType dtype, std::vector<std::int64_t> shape, std::uint32_t stream) {
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, 0.5 * philox_normal(7, stream, i));
  return t;
}

std::string device_mismatch(runtime::Backend backend) {
  const std::string why = backend_unavailable_reason(backend);
  return why.empty() ? "" : "device: " + why;
}

namespace {

std::string compare_runs(const std::vector<Tensor>& a, const std::vector<Tensor>& b, const std::string& what) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!compare_bitwise(a[i], b[i]).equal()) return "output " + std::to_string(i) + " differs " + what;
    for (double v : a[i].values())
      if (!std::isfinite(v)) return "output " + std::to_string(i) + " is not finite";
  }
  return "";
}

// The routine's outputs on `in`; with `backward`, then the gradients it returns for d_out drawn in each
// output's shape (an operand without one gets Tensor(), which holds no storage and is skipped).
std::vector<Tensor> run_routine(const runtime::Routine& routine, const std::vector<Tensor>& in, bool backward) {
  std::vector<Tensor> out = routine.forward(in);
  if (!backward) return out;
  std::vector<Tensor> d_out;
  for (std::size_t i = 0; i < out.size(); ++i)
    d_out.push_back(example_operand(DType::f32, out[i].shape(), 90 + static_cast<std::uint32_t>(i)));
  for (Tensor& g : routine.backward(in, d_out))
    if (!g.storage_bytes().empty()) out.push_back(std::move(g));
  return out;
}

}  // namespace

std::function<std::string(runtime::Backend)> repeatable_self_check(
    std::function<std::unique_ptr<runtime::Routine>(runtime::Backend)> make,
    std::function<std::vector<Tensor>()> example, bool backward) {
  return [make, example, backward](runtime::Backend b) -> std::string {
    if (std::string why = device_mismatch(b); !why.empty()) return why;
    try {
      const std::vector<Tensor> in = example();
      const auto routine = make(b);
      const auto first = run_routine(*routine, in, backward);
      if (std::string why = compare_runs(first, run_routine(*routine, in, backward), "between two runs"); !why.empty())
        return why;
      if (b != runtime::Backend::host)
        return compare_runs(first, run_routine(*make(runtime::Backend::host), in, backward), "from the host twin");
      return "";
    } catch (const WorkerError&) {
      throw;  // parity could not reach the kernel (a worker, a --torch-channel): no verdict on it
    } catch (const std::exception& e) {
      return std::string("it threw: ") + e.what();
    }
  };
}

}  // namespace parity::model
