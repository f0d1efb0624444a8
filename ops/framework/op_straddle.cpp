#include <parity/ops/framework/op_straddle.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include <parity/core/random_fill.hpp>
#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>

namespace parity::ops {
namespace {

constexpr std::uint32_t kTargetStream = 91, kCandidateStream = 92;
constexpr int kNewtonSteps = 5, kGridNeighbours = 3;

// v rounded to dtype t, and the value `steps` patterns away (bits + steps: away from zero for
// steps > 0 on either sign), NaN where that is no finite value.
struct Grid {
  DType t;
  std::uint64_t bits(double v) const {
    Tensor one = Tensor::zeros(t, {1});
    one.set_value(0, v);
    return one.bits_at(0);
  }
  double value(std::uint64_t b) const {
    Tensor one = Tensor::zeros(t, {1});
    one.set_bits(0, b);
    const double v = one.value_at(0);
    return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
  }
  std::uint64_t mask() const { return dtype_size(t) == 8 ? ~0ull : (1ull << (8 * dtype_size(t))) - 1; }
};

double f32_ulp(double m) {
  const float f = std::fabs(static_cast<float>(m));
  return std::max<double>(std::nextafter(f, std::numeric_limits<float>::infinity()) - f, 0x1p-149);
}

struct Element {
  std::string input;
  std::int64_t local = 0;  // index in the one-row problem's input
  std::int64_t full = 0;   // index in the case's input
};

// The one-row problem and what the search evaluates on it, within a budget: each evaluation
// costs its input elements plus the op's declared work on one row (OpDecl::work: attention's
// S*S per head costs more than its inputs); past the budget every evaluation is NaN, which ends
// the search. The reference on the row as it stands is evaluated once and kept until the row
// changes (the budget is charged for each evaluation all the same).
struct Row {
  const OpDef& op;
  OpValues values;
  std::map<std::string, DType> dtypes;
  std::int64_t budget;
  std::int64_t work = 0;  // the declared work of one row
  // The reference on `values`, once evaluated: valid while `values` changes only through set()
  // (output_with restores what it changes) and the double oracle is a function of its values.
  std::optional<OutputValues> current;

  const OutputValues& outputs() {
    if (!current) current = op.oracle(values);
    return *current;
  }
  void set(const std::string& input, std::int64_t local, double v) {
    values.inputs.at(input)[static_cast<std::size_t>(local)] = v;
    current.reset();
  }
  double output(const std::string& name, std::int64_t j) {
    if (!charge()) return std::numeric_limits<double>::quiet_NaN();
    return outputs().at(name).at(static_cast<std::size_t>(j));
  }
  double output_with(const Element& e, double v, const std::string& name, std::int64_t j) {
    double& slot = values.inputs.at(e.input)[static_cast<std::size_t>(e.local)];
    if (std::bit_cast<std::uint64_t>(slot) == std::bit_cast<std::uint64_t>(v)) return output(name, j);
    if (!charge()) return std::numeric_limits<double>::quiet_NaN();
    const double keep = slot;
    slot = v;
    const OutputValues out = op.oracle(values);
    slot = keep;
    return out.at(name).at(static_cast<std::size_t>(j));
  }

 private:
  // Charges one evaluation; false once the budget is spent.
  bool charge() {
    budget -= work;
    for (const auto& [n, v] : values.inputs) budget -= static_cast<std::int64_t>(v.size()) + 1;
    return budget >= 0;
  }
};

// The best value on e's grid for y(e) = m: its bits and how far y then lies from m (infinite
// where nothing finite was found).
std::pair<std::uint64_t, double> solve(Row& row, const Element& e, const std::string& out, std::int64_t j, double m) {
  const Grid grid{row.dtypes.at(e.input)};
  const double v0 = row.values.inputs.at(e.input)[static_cast<std::size_t>(e.local)];
  double best_gap = std::numeric_limits<double>::infinity();
  std::uint64_t best_bits = grid.bits(v0);
  const auto consider = [&](std::uint64_t b) {
    const double v = grid.value(b & grid.mask());
    if (!std::isfinite(v)) return;
    const double gap = std::fabs(row.output_with(e, v, out, j) - m);
    if (gap < best_gap) {
      best_gap = gap;
      best_bits = b & grid.mask();
    }
  };
  // Secant steps from v0 and a nearby point, in double.
  double a = v0, fa = row.output_with(e, a, out, j) - m;
  double b = v0 == 0 ? 0x1p-20 : v0 * (1 + 0x1p-10), fb = row.output_with(e, b, out, j) - m;
  // An element that does not move y (an input this output does not read, as lora_backward's dx
  // does not read x) cannot place it: no more of the budget goes to it.
  if (fa == fb) return {best_bits, best_gap};
  const double close = f32_ulp(m) / 2;
  for (int k = 0; k < kNewtonSteps && std::isfinite(fa) && std::isfinite(fb) && fb != fa && std::fabs(fb) > close;
       ++k) {
    const double c = b - fb * (b - a) / (fb - fa);
    if (!std::isfinite(c)) break;
    a = b, fa = fb;
    b = c, fb = row.output_with(e, b, out, j) - m;
  }
  if (!std::isfinite(b)) return {best_bits, best_gap};
  const std::uint64_t center = grid.bits(b);
  for (int d = -kGridNeighbours; d <= kGridNeighbours; ++d) consider(center + static_cast<std::uint64_t>(d));
  return {best_bits, best_gap};
}

}  // namespace

double nearest_midpoint(double v, DType t) {
  const Grid grid{t};
  const std::uint64_t r = grid.bits(v);
  const double rv = grid.value(r);
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const std::uint64_t n : {r + 1, r - 1}) {
    const double nv = grid.value(n & grid.mask());
    if (!std::isfinite(nv) || !std::isfinite(rv) || (nv == rv)) continue;
    const double m = (rv + nv) / 2;
    if (std::isnan(best) || std::fabs(v - m) < std::fabs(v - best)) best = m;
  }
  return best;
}

double midpoint_distance_ulps(double v, DType t) {
  const double m = nearest_midpoint(v, t);
  return std::isfinite(m) ? std::fabs(v - m) / f32_ulp(m) : std::numeric_limits<double>::infinity();
}

StraddlePlan straddle_patches(const OpDef& op, const Case& c, int count, std::int64_t budget) {
  StraddlePlan plan;
  const OpDecl& d = op.decl;
  std::map<std::string, std::int64_t> no_rows = c.dims;
  no_rows[d.row_extent] = 0;
  if (count <= 0 || !fits(d, no_rows, d.max_elements, d.max_work)) return plan;  // past the oracle's caps: a reach case
  std::vector<const TensorDecl*> outputs;  // known before anything is materialised
  for (const auto& t : d.outputs) {
    const DType dt = case_dtype(t, c);
    if (d.has_rows(t) && (dt == DType::bf16 || dt == DType::f16)) outputs.push_back(&t);
  }
  if (outputs.empty()) return plan;
  const OpProblem full = materialise(d, c, 0, true);
  const OpProblem one = row_slice(d, full, c.probe_row, c.probe_row + 1);
  std::map<std::string, std::int64_t> one_row = c.dims;
  one_row[d.row_extent] = 1;
  Row row{op, one.values, {}, budget, d.work.empty() ? 0 : work_of(d, one_row), {}};
  for (const auto& t : d.inputs)
    if (full.call.has_input(t.name)) row.dtypes[t.name] = full.call.inputs.at(t.name).dtype();

  // The real elements of the row of t's n elements (op_decl.hpp, real_element): its first ones.
  const auto real = [&](const TensorDecl& t, std::int64_t n) {
    return ragged_extent_of(d, t) == nullptr ? n : real_width(d, t, one.values.extents, one.values.lengths, 0);
  };

  struct Target {
    const TensorDecl* output;
    std::int64_t j;
    double m;
    std::vector<Element> candidates;
  };
  // Each row-led input's elements of the smallest nonzero magnitude in the row: one step of such
  // an element moves a reduction over the row least, the fine adjustment after a coarse one.
  std::map<std::string, std::vector<std::int64_t>> smallest;
  for (const auto& in : d.inputs) {
    if (!d.has_rows(in) || !full.call.has_input(in.name) || in.per_row()) continue;  // absent, or the Case's
    const auto& v = row.values.inputs.at(in.name);
    std::vector<std::int64_t> order;
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(v.size()); ++k)
      if (k < real(in, static_cast<std::int64_t>(v.size())) && std::isfinite(v[static_cast<std::size_t>(k)]) &&
          v[static_cast<std::size_t>(k)] != 0)
        order.push_back(k);
    const auto n = std::min<std::size_t>(kStraddleSmallest, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                      [&](std::int64_t a, std::int64_t b) {
                        const double x = std::fabs(v[static_cast<std::size_t>(a)]),
                                     y = std::fabs(v[static_cast<std::size_t>(b)]);
                        return x != y ? x < y : a < b;
                      });
    order.resize(n);
    smallest[in.name] = order;
  }
  std::vector<Target> targets;
  std::set<std::pair<std::string, std::int64_t>> chosen;
  for (int i = 0; i < count; ++i) {
    const TensorDecl& out = *outputs[static_cast<std::size_t>(i) % outputs.size()];
    const auto width =
        static_cast<std::int64_t>(row.values.shapes.at(out.name).size() == 2 ? row.values.shapes.at(out.name)[1] : 1);
    const auto j = static_cast<std::int64_t>(philox_bits(c.seed, kTargetStream, static_cast<std::uint64_t>(i)) %
                                             static_cast<std::uint64_t>(real(out, width)));
    if (!chosen.insert({out.name, j}).second) continue;
    Target target{&out, j, 0.0, {}};
    for (const auto& in : d.inputs) {
      if (!full.call.has_input(in.name) || in.per_row()) continue;  // absent, or values the Case holds
      const auto n = static_cast<std::int64_t>(row.values.inputs.at(in.name).size());
      if (n == 0) continue;
      const std::int64_t offset = d.has_rows(in) ? c.probe_row * n : 0;
      if (n == width && j < real(in, n)) target.candidates.push_back({in.name, j, offset + j});
      if (!d.has_rows(in)) continue;
      for (int k = 0; k < kStraddleCandidates; ++k) {
        const auto local = static_cast<std::int64_t>(
            philox_bits(c.seed, kCandidateStream, static_cast<std::uint64_t>(i * kStraddleCandidates + k)) %
            static_cast<std::uint64_t>(real(in, n)));
        target.candidates.push_back({in.name, local, offset + local});
      }
      for (const std::int64_t local : smallest.at(in.name))
        target.candidates.push_back({in.name, local, offset + local});
    }
    targets.push_back(std::move(target));
  }

  // Distances from one evaluation outside the budget.
  const auto distance = [&](const Target& t, const OutputValues& out) {
    const double y = out.at(t.output->name).at(static_cast<std::size_t>(t.j));
    return std::isfinite(y) && std::isfinite(t.m) ? std::fabs(y - t.m) / f32_ulp(t.m)
                                                  : std::numeric_limits<double>::infinity();
  };
  {
    const OutputValues& out = row.outputs();
    for (Target& t : targets) {
      const double y = out.at(t.output->name).at(static_cast<std::size_t>(t.j));
      t.m = std::isfinite(y) ? nearest_midpoint(y, full.call.output_dtypes.at(t.output->name)) : y;
    }
  }
  for (int pass = 0; pass < kStraddlePasses; ++pass) {
    bool all_placed = true;
    const OutputValues now = row.outputs();  // a copy: the patches below change the row
    for (Target& t : targets) {
      if (!std::isfinite(t.m) || distance(t, now) <= kStraddleUlps) continue;
      all_placed = false;
      const Element* best = nullptr;
      std::uint64_t best_bits = 0;
      double best_gap = std::fabs(row.output(t.output->name, t.j) - t.m);
      for (const Element& e : t.candidates) {
        const auto [bits, gap] = solve(row, e, t.output->name, t.j, t.m);
        if (gap < best_gap) best = &e, best_bits = bits, best_gap = gap;
      }
      if (!best) continue;
      const Grid grid{row.dtypes.at(best->input)};
      row.set(best->input, best->local, grid.value(best_bits));
      plan.patches.push_back({best->input, best->full, best_bits, row.dtypes.at(best->input)});
    }
    if (all_placed) break;
  }
  const OutputValues& last = row.outputs();
  for (const Target& t : targets) {
    const auto& shape = row.values.shapes.at(t.output->name);
    const std::int64_t width = shape.size() == 2 ? shape[1] : 1;
    const double y = last.at(t.output->name).at(static_cast<std::size_t>(t.j));
    plan.targets.push_back({t.output->name, c.probe_row * width + t.j,
                            midpoint_distance_ulps(y, full.call.output_dtypes.at(t.output->name))});
  }
  return plan;
}

}  // namespace parity::ops
