#pragma once
// The test every backward op's reference owes (ops/README.md, "Backward ops"): its double oracle
// is the gradient of its forward's. With L = sum over the forward's outputs y that have a
// cotangent input dy of sum(y * dy), and for an input x of the forward and a direction u,
// sum(dx * u), dx the backward's output "d" + x, must equal the central difference
// (L(x + h u) - L(x - h u)) / (2 h) of the forward's oracle, within 1e-6 (1 + |difference|).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/compare.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>

namespace parity::ops::testing {

// What breaks that rule on the backward's case `c`, for each forward input in `wrt`; `cotangents`
// maps a forward output to the backward input that is its gradient ({"y", "dy"}); `h` is the step.
// Empty when it holds. Nothing to check is a fault too: an empty `wrt` or `cotangents`, a
// gradient or cotangent of another size than what it differentiates, or no element at all.
inline std::vector<std::string> gradient_mismatches(const OpDef& forward, const OpDef& backward, const Case& c,
                                                    const std::map<std::string, std::string>& cotangents,
                                                    const std::vector<std::string>& wrt, double h = 1e-6) {
  const OpProblem p = materialise(backward.decl, c);
  const auto grads = backward.oracle(p.values);
  OpValues fwd;  // the forward's values: the backward's inputs but the cotangents
  fwd.extents = p.values.extents;
  fwd.params = p.values.params;
  for (const auto& t : forward.decl.inputs)
    if (p.values.inputs.contains(t.name)) {
      fwd.inputs[t.name] = p.values.inputs.at(t.name);
      fwd.shapes[t.name] = p.values.shapes.at(t.name);
    }
  for (const auto& t : forward.decl.outputs) fwd.shapes[t.name] = eval_shape(t, fwd.extents);
  const auto loss = [&](const OpValues& v) {
    const auto y = forward.oracle(v);
    double s = 0;
    for (const auto& [output, cotangent] : cotangents) {
      const std::vector<double>& dy = p.values.inputs.at(cotangent);
      for (std::size_t i = 0; i < dy.size(); ++i) s += y.at(output)[i] * dy[i];
    }
    return s;
  };
  std::vector<std::string> faults;
  if (wrt.empty() || cotangents.empty()) faults.push_back("nothing to differentiate: no input or no cotangent named");
  const auto forward_values = forward.oracle(fwd);
  for (const auto& [output, cotangent] : cotangents)
    if (forward_values.at(output).size() != p.values.inputs.at(cotangent).size())
      faults.push_back(cotangent + " has " + std::to_string(p.values.inputs.at(cotangent).size()) + " elements, " +
                       output + " " + std::to_string(forward_values.at(output).size()));
  if (!faults.empty()) return faults;
  for (const std::string& x : wrt) {
    const std::vector<double>& dx = grads.at("d" + x);
    if (dx.empty() || dx.size() != fwd.inputs.at(x).size()) {
      faults.push_back("d" + x + " has " + std::to_string(dx.size()) + " elements, " + x + " " +
                       std::to_string(fwd.inputs.at(x).size()));
      continue;
    }
    double along = 0;
    OpValues plus = fwd, minus = fwd;
    for (std::size_t i = 0; i < dx.size(); ++i) {
      const double u = std::sin(1.0 + 7.0 * static_cast<double>(i));
      along += dx[i] * u;
      plus.inputs.at(x)[i] += h * u;
      minus.inputs.at(x)[i] -= h * u;
    }
    const double diff = (loss(plus) - loss(minus)) / (2 * h);
    if (!(std::fabs(along - diff) <= 1e-6 * (1 + std::fabs(diff))))
      faults.push_back("d" + x + " along u is " + number_text(along) + ", the central difference " + number_text(diff) +
                       " (" + c.summary() + ")");
  }
  return faults;
}

}  // namespace parity::ops::testing
