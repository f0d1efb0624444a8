#include <parity/ops/framework/op_checks.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include <parity/core/compare.hpp>
#include <parity/ops/framework/batch_shapes.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>

namespace parity::ops {
namespace {

// The subject's outputs (in their declared dims, op_view.hpp; a packed one unpacked, +0 in its
// padding), or why they are not the declared ones.
struct Run {
  OpOutputs out;
  std::string fault;
};

Run run(const OpDecl& d, OpSubject& s, const OpCall& call) {
  Run r{s.run(subject_call(d, call)), {}};
  const std::vector<std::string> unchecked = s.unchecked_outputs();
  for (const auto& name : unchecked)
    if (std::none_of(d.outputs.begin(), d.outputs.end(), [&](const TensorDecl& t) { return t.name == name; }))
      throw std::logic_error("unchecked_outputs names " + name + ", which " + d.name + " does not declare");
  if (unchecked.size() >= d.outputs.size()) {
    r.fault = "the subject returns none of " + d.name + "'s outputs: nothing to check";
    return r;
  }
  for (const auto& t : d.outputs) {
    const auto it = r.out.find(t.name);
    if (std::find(unchecked.begin(), unchecked.end(), t.name) != unchecked.end()) {
      if (it != r.out.end()) r.out.erase(it);  // declared unchecked: never compared
      continue;
    }
    if (it == r.out.end()) r.fault = "the subject returned no output " + t.name;
    else if (is_packed(t, call) && it->second.shape() != subject_shape(t, call))
      r.fault = "output " + t.name + " is " + shape_text(it->second.shape()) + " where " + d.name + " declares " +
                shape_text(subject_shape(t, call)) + " (packed)";
    else {
      if (is_packed(t, call)) it->second = unpacked(t, it->second, call);  // compared as its dims, +0 in the padding
      if (const auto shape = eval_subject_shape(t, call.extents); it->second.shape() != shape)
        r.fault = "output " + t.name + " is " + shape_text(it->second.shape()) + " where " + d.name + " declares " +
                  shape_text(shape);
      else if (it->second.dtype() != call.output_dtypes.at(t.name))
        r.fault = "output " + t.name + " is " + std::string(dtype_name(it->second.dtype())) + ", not " +
                  std::string(dtype_name(call.output_dtypes.at(t.name)));
    }
    if (!r.fault.empty()) return r;
  }
  return r;
}

// The first output whose bits differ between two runs: its name, the difference in words
// (BitwiseDiff::describe) and where its bits differ (a map of the compared rows).
struct Difference {
  std::string output, text;
  std::optional<ElementMap> map;
  std::int64_t row = -1;  // the row of `a` of the first difference, where rows were compared
  bool found() const { return !text.empty(); }
};

// The first bitwise difference between two runs' outputs, restricted to rows [a0, a0 + n) of
// `a` and [b0, b0 + n) of `b` for outputs led by the row extent (every output when n < 0). An
// output one run lacks (a subject's unchecked_outputs) is not compared. `call` is `a`'s: a
// packed output (op_view.hpp) counts its real positions only (its padding is +0 in both) and
// names the sequence and packed row of the first difference.
Difference first_difference(const OpDecl& d, const OpCall& call, const OpOutputs& a, const OpOutputs& b,
                            std::int64_t a0 = 0, std::int64_t b0 = 0, std::int64_t n = -1) {
  for (const auto& t : d.outputs) {
    if (!a.contains(t.name) || !b.contains(t.name)) continue;
    // The outputs themselves where the rows compared are all of them, else copies of those rows.
    const Tensor *whole_x = &a.at(t.name), *whole_y = &b.at(t.name);
    Tensor rows_x, rows_y;
    if (n >= 0 && !d.has_rows(t)) continue;
    const bool all_x = n < 0 || (a0 == 0 && !whole_x->shape().empty() && n == whole_x->dim(0));
    const bool all_y = n < 0 || (b0 == 0 && !whole_y->shape().empty() && n == whole_y->dim(0));
    const Tensor& x = all_x ? *whole_x : (rows_x = whole_x->rows(a0, a0 + n));
    const Tensor& y = all_y ? *whole_y : (rows_y = whole_y->rows(b0, b0 + n));
    BitwiseDiff diff = compare_bitwise(x, y);
    if (diff.equal()) continue;
    std::string where;
    if (is_packed(t, call) && !diff.shape_mismatch) {
      diff.compared = 0;
      for (std::int64_t r = n >= 0 ? a0 : 0; r < (n >= 0 ? a0 + n : x.dim(0)); ++r)
        diff.compared += real_width(d, t, call.extents, call.lengths, r);
      where = packed_position_text(t, diff.first_index, call, n >= 0 ? a0 : 0);
    }
    Difference found{t.name, t.name + ": " + diff.describe(x.shape()) + where, {}, -1};
    if (n > 0) found.row = a0 + diff.first_index / std::max<std::int64_t>(x.numel() / n, 1);
    if (!diff.shape_mismatch) found.map = element_map_of(t.name, MapMeasure::bits_differ, x.shape(), bits_differ(x, y));
    return found;
  }
  return {};
}

// Whether a run's outputs hold one led by the row extent: what rows_independent and
// batch_vs_batch compare (a subject's unchecked_outputs may leave none).
bool has_row_output(const OpDecl& d, const OpOutputs& out) {
  return std::any_of(d.outputs.begin(), d.outputs.end(),
                     [&](const TensorDecl& t) { return d.has_rows(t) && out.contains(t.name); });
}

std::string no_row_output(const OpDecl& d) {
  return "no output led by the row extent " + d.row_extent + " is compared (the subject's unchecked_outputs)";
}

// Whether some row of a row-led input holds other bits than row `row`.
bool rows_differ(const OpDecl& d, const OpProblem& p, std::int64_t row) {
  for (const auto& t : d.inputs) {
    if (!d.has_rows(t) || !p.call.has_input(t.name)) continue;
    const Tensor& x = p.call.inputs.at(t.name);
    const Tensor mine = x.rows(row, row + 1);
    for (std::int64_t r = 0; r < x.dim(0); ++r)
      if (r != row && !compare_bitwise(x.rows(r, r + 1), mine).equal()) return true;
  }
  return false;
}

// The row-led outputs of `parts` (each present in every part), their rows one part after another,
// then picked in `order` (every row in turn where empty): a batch's outputs back in its own order.
OpOutputs row_outputs(const OpDecl& d, const std::vector<OpOutputs>& parts, const std::vector<std::int64_t>& order) {
  OpOutputs out;
  for (const auto& t : d.outputs) {
    if (!d.has_rows(t) ||
        !std::all_of(parts.begin(), parts.end(), [&](const OpOutputs& o) { return o.contains(t.name); }))
      continue;
    std::vector<std::pair<const Tensor*, std::int64_t>> rows;  // every row of the parts in turn
    for (const auto& part : parts)
      for (std::int64_t r = 0; r < part.at(t.name).dim(0); ++r) rows.emplace_back(&part.at(t.name), r);
    std::vector<std::int64_t> shape = parts.front().at(t.name).shape();
    shape[0] = order.empty() ? static_cast<std::int64_t>(rows.size()) : static_cast<std::int64_t>(order.size());
    Tensor y = Tensor::zeros(parts.front().at(t.name).dtype(), shape);
    const std::int64_t width = shape[0] ? y.numel() / shape[0] : 0;
    const std::size_t bytes = static_cast<std::size_t>(width) * dtype_size(y.dtype());
    for (std::int64_t k = 0; k < shape[0]; ++k) {
      const auto [from, r] = rows[static_cast<std::size_t>(order.empty() ? k : order[static_cast<std::size_t>(k)])];
      if (from->is_contiguous() && from->dtype() == y.dtype()) {  // the row's bytes at once
        if (bytes > 0)
          std::memcpy(y.storage_bytes().data() + static_cast<std::size_t>(k) * bytes,
                      from->storage_bytes().data() + static_cast<std::size_t>(r) * bytes, bytes);
        continue;
      }
      for (std::int64_t i = 0; i < width; ++i) y.set_bits(k * width + i, from->bits_at(r * width + i));
    }
    out[t.name] = std::move(y);
  }
  return out;
}

Verdict bitwise(const char* property, Difference diff, const std::string& what) {
  if (!diff.found()) return Verdict::pass(property);
  Verdict v = Verdict::fail(property, what + ": " + diff.text);
  v.map = std::move(diff.map);
  return v;
}

// The output's unit roundoff, half its smallest subnormal and its largest finite.
struct Rounding {
  double unit, eta, max_finite;
};
Rounding rounding_of(DType t) {
  switch (t) {
    case DType::bf16:
      return {0x1p-8, 0x1p-134, 3.3895313892515355e38};
    case DType::f32:
      return {0x1p-24, 0x1p-150, 3.4028234663852886e38};
    case DType::f64:
      return {0x1p-53, 0x1p-1074, std::numeric_limits<double>::max()};
    case DType::f16:
      return {0x1p-11, 0x1p-25, 65504.0};
  }
  return {0, 0, 0};
}

}  // namespace

Verdict repeatable(const OpDef& op, const Case& c, OpSubject& s) {
  const OpProblem p = materialise(op.decl, c);
  const OpProblem fresh = p;
  const Run a = run(op.decl, s, p.call), b = run(op.decl, s, fresh.call);
  if (!a.fault.empty() || !b.fault.empty()) return Verdict::fail("repeatable", a.fault.empty() ? b.fault : a.fault);
  Verdict v = bitwise("repeatable", first_difference(op.decl, p.call, a.out, b.out),
                      "a second call on the same inputs differs");
  if (v.fails()) v.kind = FailureKind::nondeterministic;  // a replay runs it kFlakyRuns times
  return v;
}

Verdict rows_independent(const OpDef& op, const Case& c, OpSubject& s) {
  const OpProblem p = materialise(op.decl, c);
  const std::int64_t T = rows(op.decl, p);
  if (T < 2) return Verdict::discard("rows_independent", "a batch of one row");
  if (!rows_differ(op.decl, p, c.probe_row))
    return Verdict::discard("rows_independent", "every row holds the probe row's bits");
  const Run batch = run(op.decl, s, p.call);
  if (!batch.fault.empty()) return Verdict::fail("rows_independent", batch.fault);
  if (!has_row_output(op.decl, batch.out)) return Verdict::discard("rows_independent", no_row_output(op.decl));
  std::set<std::int64_t> compared = {c.probe_row, T - 1};
  for (std::int64_t k = 0; k < kRowsCompared; ++k) compared.insert(k * T / kRowsCompared);
  // The rows compared before the first that differs agree; the map marks them and that row's
  // elements, and leaves the rows not compared unmarked (NaN).
  std::vector<std::int64_t> equal_rows;
  for (const std::int64_t row : compared) {
    const Run alone = run(op.decl, s, row_slice(op.decl, p, row, row + 1).call);
    if (!alone.fault.empty()) return Verdict::fail("rows_independent", alone.fault);
    const Difference diff = first_difference(op.decl, p.call, batch.out, alone.out, row, 0, 1);
    if (!diff.found()) {
      equal_rows.push_back(row);
      continue;
    }
    Verdict v = Verdict::fail("rows_independent", "row " + std::to_string(row) + " of a batch of " + std::to_string(T) +
                                                      " differs from that row alone: " + diff.text);
    const Tensor& y = batch.out.at(diff.output);
    const std::int64_t width = y.numel() / y.dim(0);
    std::vector<double> marks(static_cast<std::size_t>(y.numel()), NAN);
    for (const std::int64_t r : equal_rows) std::fill_n(marks.begin() + r * width, width, 0.0);
    const std::vector<double> row_marks = bits_differ(y.rows(row, row + 1), alone.out.at(diff.output));
    std::copy(row_marks.begin(), row_marks.end(), marks.begin() + row * width);
    v.map = element_map_of(diff.output, MapMeasure::bits_differ, y.shape(), marks);
    return v;
  }
  return Verdict::pass("rows_independent");
}

Verdict batch_vs_batch(const OpDef& op, const Case& c, OpSubject& s) {
  const std::int64_t T = c.dim(op.decl.row_extent);
  if (T < 2) return Verdict::discard("batch_vs_batch", "a batch of one row (both batches must hold several)");
  const OpProblem p = materialise(op.decl, c), taller = materialise(op.decl, c, 1);
  const Run a = run(op.decl, s, p.call), b = run(op.decl, s, taller.call);
  if (!a.fault.empty() || !b.fault.empty()) return Verdict::fail("batch_vs_batch", a.fault.empty() ? b.fault : a.fault);
  if (!has_row_output(op.decl, a.out)) return Verdict::discard("batch_vs_batch", no_row_output(op.decl));
  return bitwise(
      "batch_vs_batch", first_difference(op.decl, p.call, a.out, b.out, 0, 0, T),
      "rows of a batch of " + std::to_string(T) + " differ from the same rows in a batch of " + std::to_string(T + 1));
}

Verdict rows_permuted(const OpDef& op, const Case& c, OpSubject& s) {
  const OpDecl& d = op.decl;
  const OpProblem p = materialise(d, c, 0, true);
  const std::int64_t T = rows(d, p);
  if (T < 2) return Verdict::discard("rows_permuted", "a batch of one row");
  const std::string& by = row_order_input(d);
  const std::vector<std::int64_t> order = permuted_order(p.call.inputs.at(by));
  const Run batch = run(d, s, p.call), permuted = run(d, s, row_gather(d, p, order).call);
  if (!batch.fault.empty() || !permuted.fault.empty())
    return Verdict::fail("rows_permuted", batch.fault.empty() ? permuted.fault : batch.fault);
  if (!has_row_output(d, batch.out)) return Verdict::discard("rows_permuted", no_row_output(d));
  std::vector<std::int64_t> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    position[static_cast<std::size_t>(order[k])] = static_cast<std::int64_t>(k);
  const Difference diff = first_difference(d, p.call, batch.out, row_outputs(d, {permuted.out}, position), 0, 0, T);
  if (!diff.found()) return Verdict::pass("rows_permuted");
  return bitwise("rows_permuted", diff,
                 "row " + std::to_string(diff.row) + " of a batch of " + std::to_string(T) +
                     " differs from that row run at " + "position " +
                     std::to_string(position[static_cast<std::size_t>(diff.row)]) +
                     " of the batch reordered by the norms of " + by + "'s rows");
}

Verdict rows_padded(const OpDef& op, const Case& c, OpSubject& s) {
  const OpDecl& d = op.decl;
  const OpProblem p = materialise(d, c, 0, true);
  const std::int64_t T = rows(d, p), bucket = padded_rows(T);
  std::vector<std::int64_t> order(static_cast<std::size_t>(bucket), kZeroRow);
  for (std::int64_t r = 0; r < T; ++r) order[static_cast<std::size_t>(r)] = r;
  const Run batch = run(d, s, p.call), padded = run(d, s, row_gather(d, p, order).call);
  if (!batch.fault.empty() || !padded.fault.empty())
    return Verdict::fail("rows_padded", batch.fault.empty() ? padded.fault : batch.fault);
  if (!has_row_output(d, batch.out)) return Verdict::discard("rows_padded", no_row_output(d));
  const Difference diff = first_difference(d, p.call, batch.out, padded.out, 0, 0, T);
  if (!diff.found()) return Verdict::pass("rows_padded");
  return bitwise("rows_padded", diff,
                 "row " + std::to_string(diff.row) + " of a batch of " + std::to_string(T) +
                     " differs from that row in the batch padded with " + std::to_string(bucket - T) +
                     " rows of +0 to " + std::to_string(bucket));
}

Verdict rows_chunked(const OpDef& op, const Case& c, OpSubject& s) {
  const OpDecl& d = op.decl;
  const OpProblem p = materialise(d, c, 0, true);
  const std::int64_t T = rows(d, p), n = chunk_rows(T);
  if (T < 2) return Verdict::discard("rows_chunked", "a batch of one row is one chunk");
  const Run batch = run(d, s, p.call);
  if (!batch.fault.empty()) return Verdict::fail("rows_chunked", batch.fault);
  if (!has_row_output(d, batch.out)) return Verdict::discard("rows_chunked", no_row_output(d));
  std::vector<OpOutputs> chunks;
  for (std::int64_t begin = 0; begin < T; begin += n) {
    Run chunk = run(d, s, row_slice(d, p, begin, std::min(begin + n, T)).call);
    if (!chunk.fault.empty()) return Verdict::fail("rows_chunked", chunk.fault);
    chunks.push_back(std::move(chunk.out));
  }
  const Difference diff = first_difference(d, p.call, batch.out, row_outputs(d, chunks, {}), 0, 0, T);
  if (!diff.found()) return Verdict::pass("rows_chunked");
  return bitwise("rows_chunked", diff,
                 "row " + std::to_string(diff.row) + " of a batch of " + std::to_string(T) +
                     " differs from that row run as row " + std::to_string(diff.row % n) + " of chunk " +
                     std::to_string(diff.row / n) + " (the batch in " + std::to_string(chunks.size()) +
                     " chunks of up to " + std::to_string(n) + " rows)");
}

Verdict layout_invariant(const OpDef& op, const Case& c, OpSubject& s) {
  if (c.layouts.empty()) return Verdict::discard("layout_invariant", "every input is contiguous");
  const OpProblem p = materialise(op.decl, c);
  const Run a = run(op.decl, s, p.call);
  const Run b = run(op.decl, s, materialise(op.decl, c, 0, true).call);
  if (!a.fault.empty() || !b.fault.empty())
    return Verdict::fail("layout_invariant", a.fault.empty() ? b.fault : a.fault);
  return bitwise("layout_invariant", first_difference(op.decl, p.call, a.out, b.out),
                 "strided inputs differ from contiguous ones");
}

std::vector<std::int64_t> accuracy_rows(const OpDecl& d, const Case& c) {
  const std::int64_t T = c.dim(d.row_extent);
  // k rows fit the oracle's caps where their work does and each row-led operand of k rows does;
  // an operand every row shares (a weight) is the case's, whatever the rows, and costs the oracle
  // only through the work.
  const auto rows_fit = [&](std::int64_t k) {
    std::map<std::string, std::int64_t> dims = c.dims;
    dims[d.row_extent] = k;
    if (work_of(d, dims) > d.max_work) return false;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list) {
        if (!d.has_rows(t)) continue;
        const auto shape = eval_shape(t, dims);
        if (std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>()) > d.max_elements)
          return false;
      }
    return true;
  };
  std::int64_t lo = 0, hi = T;  // the most rows that fit lie in [lo, hi]
  while (lo < hi) {
    const std::int64_t mid = hi - (hi - lo) / 2;
    if (rows_fit(mid)) lo = mid;
    else hi = mid - 1;
  }
  std::vector<std::int64_t> out;
  if (lo == T) {
    for (std::int64_t r = 0; r < T; ++r) out.push_back(r);
    return out;
  }
  if (lo == 0) return out;
  std::set<std::int64_t> chosen = {c.probe_row};
  if (lo > 1) chosen.insert(T - 1);
  for (std::int64_t k = 0; k < lo && static_cast<std::int64_t>(chosen.size()) < lo; ++k) chosen.insert(k * T / lo);
  return {chosen.begin(), chosen.end()};
}

namespace {

// One output as forward_accuracy checks it: the subject's values at the reference's elements (the
// checked rows, in the reference's row-major order), whether each is real (not a ragged extent's
// padding), and where each lies in the batch's matrix.
struct CheckedOutput {
  const TensorDecl* decl;
  std::vector<double> all;  // the batch's matrix
  std::vector<double> got;
  std::vector<std::uint8_t> real;
  std::function<std::int64_t(std::size_t)> whole;  // element i of the reference is whole(i) of `all`
  std::int64_t real_count = 0;
};

// What a Filtered lower bound becomes after the output's rounding into a narrower dtype
// (Bounded::rounded_to: E + unit M + eta, M >= |v_B| + 2E), taken down.
double rounded_lower(double lo, double lower_abs, const Rounding& out, const Arithmetic& arithmetic) {
  if (!(out.unit > arithmetic.unit)) return lo;
  return (lo + out.unit * (lower_abs + 2 * lo) + out.eta) * (1 - 0x1p-50);
}

// The filter's verdict (filtered.hpp): a pass where every real element of every checked output
// satisfies |got - v| + 2d <= lo after the output's rounding, else nothing (Bounded decides).
std::optional<Verdict> filter_pass(const OpDef& op, const OpValues& values, const std::vector<CheckedOutput>& outputs,
                                   const OpCall& call, const Arithmetic& arithmetic) {
  // A non-finite subject value is never decided: no evaluation for a case that has one.
  for (const CheckedOutput& o : outputs)
    for (std::size_t i = 0; i < o.got.size(); ++i)
      if (o.real[i] && !std::isfinite(o.got[i])) return std::nullopt;
  const FilteredOutputs f = op.filtered(values, arithmetic);
  std::map<std::string, double> metrics;
  double worst = 0;
  std::int64_t decided = 0;
  for (const CheckedOutput& o : outputs) {
    const Rounding out = rounding_of(call.output_dtypes.at(o.decl->name));
    const std::vector<Filtered>& filtered = f.at(o.decl->name);
    double output_worst = 0;
    for (std::size_t i = 0; i < o.got.size(); ++i) {
      const double value = filtered[i].value(), dev = filtered[i].dev();
      if (!o.real[i]) {
        // Padding: Bounded checks +0 +- 0 there, the filter decides only the same bits' value.
        if (o.got[i] != value) return std::nullopt;
        continue;
      }
      const double bound = rounded_lower(filtered[i].lo(), filtered[i].lower_abs(), out, arithmetic);
      const double reach = std::fabs(o.got[i] - value) + 2 * dev;
      // A bound at the dtype's largest finite may be one Bounded exempts: undecided.
      if (!std::isfinite(value) || !(bound < out.max_finite) || !(reach <= bound)) return std::nullopt;
      output_worst = std::max(output_worst, reach == 0 ? 0.0 : reach / bound);
      ++decided;
    }
    std::vector<double> v(filtered.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = o.real[i] ? filtered[i].value() : 0.0;
    metrics[o.decl->name + "_bound_utilisation_at_most"] = output_worst;
    metrics[o.decl->name + "_rel_err_vs_fp64"] = compare_values(o.got, v).normwise_rel;
    worst = std::max(worst, output_worst);
  }
  if (decided == 0) return std::nullopt;
  Verdict v = Verdict::pass("forward_accuracy",
                            "decided by the filter: every checked element within a lower bound of "
                            "its derived bound (the exact bounds were not formed)");
  v.metrics = std::move(metrics);
  v.metrics["bound_utilisation_at_most"] = worst;
  v.metrics["decided_by_filter"] = 1;
  return v;
}

}  // namespace

Verdict forward_accuracy(const OpDef& op, const Case& c, OpSubject& s) {
  const OpDecl& d = op.decl;
  const std::vector<std::int64_t> checked_rows = accuracy_rows(d, c);
  if (checked_rows.empty())
    return Verdict::discard("forward_accuracy", "one row alone exceeds the oracle's caps (max_work " +
                                                    std::to_string(d.max_work) + ", max_elements " +
                                                    std::to_string(d.max_elements) +
                                                    " in an operand led by the row extent): no row to check");
  const OpProblem p = materialise(d, c);
  const Run r = run(d, s, p.call);
  if (!r.fault.empty()) return Verdict::fail("forward_accuracy", r.fault);
  const std::int64_t T = rows(d, p);
  const bool subset = static_cast<std::int64_t>(checked_rows.size()) < T;
  const Arithmetic arithmetic = s.arithmetic();
  // The reference of the checked rows alone: rows are independent in every op's contract.
  const OpProblem gathered = subset ? row_gather(d, p, checked_rows) : OpProblem{};
  const OpValues& values = subset ? gathered.values : p.values;
  std::string unchecked;  // outputs a subset of rows cannot check
  std::vector<CheckedOutput> outputs;
  for (const auto& t : d.outputs) {
    if (!r.out.contains(t.name)) continue;  // one the subject does not return
    if (subset && !d.has_rows(t)) {
      unchecked += (unchecked.empty() ? "" : ", ") + t.name;
      continue;
    }
    CheckedOutput o;
    o.decl = &t;
    // In the matrix's order, the reference's; a message points into the output in its declared
    // dims (a packed one unpacked, naming the sequence and packed row as well).
    o.all = matrix_of(t, r.out.at(t.name), p.call).values();
    const std::int64_t width = static_cast<std::int64_t>(o.all.size()) / std::max<std::int64_t>(T, 1);
    o.whole = [&checked_rows, subset, width](std::size_t i) {
      const auto k = static_cast<std::int64_t>(i);
      return subset ? checked_rows[static_cast<std::size_t>(k / width)] * width + k % width : k;
    };
    const std::size_t n = subset ? checked_rows.size() * static_cast<std::size_t>(width) : o.all.size();
    o.got.resize(n);
    for (std::size_t i = 0; i < n; ++i) o.got[i] = o.all[static_cast<std::size_t>(o.whole(i))];
    // Each row's real elements (real_width, op_decl.hpp): a ragged extent's padding (+0 in the
    // output and the reference alike) is neither checked nor counted.
    const bool ragged = ragged_extent_of(d, t) != nullptr;
    std::vector<std::int64_t> real_widths;
    for (std::int64_t row = 0; ragged && row < T; ++row)
      real_widths.push_back(real_width(d, t, p.values.extents, p.values.lengths, row));
    o.real.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t k = o.whole(i);
      o.real[i] = !ragged || k % width < real_widths[static_cast<std::size_t>(k / width)];
      o.real_count += o.real[i];
    }
    outputs.push_back(std::move(o));
  }
  const auto with_rows = [&](Verdict v) {
    v.metrics["rows_checked"] = static_cast<double>(checked_rows.size());
    return v;
  };
  const std::string subset_detail =
      subset
          ? std::to_string(checked_rows.size()) + " of " + std::to_string(T) +
                " rows checked (those that fit the oracle's max_work and max_elements: the probe row, the last and "
                "evenly spaced ones)" +
                (unchecked.empty() ? ""
                                   : "; " + unchecked + " not checked: summed over every row, a subset cannot check it")
          : "";
  std::map<std::string, std::int64_t> checked_dims = p.values.extents;
  checked_dims[d.row_extent] = static_cast<std::int64_t>(checked_rows.size());
  if (op.filter && op.filtered && work_of(d, checked_dims) >= kFilterWork)
    if (std::optional<Verdict> v = filter_pass(op, values, outputs, p.call, arithmetic)) {
      if (!subset_detail.empty()) v->detail += "; " + subset_detail;
      return with_rows(std::move(*v));
    }
  const BoundedOutputs ref = op.bounded(values, arithmetic);
  double utilisation = 0;
  // exempt: any value accepted; overflowed: may overflow and is not finite, accepted; checked: the rest.
  std::int64_t exempt = 0, may_overflow = 0, overflowed = 0, checked = 0;
  std::map<std::string, double> per_output;  // <output>_bound_utilisation, <output>_rel_err_vs_fp64
  std::optional<Verdict> failed;             // the first output outside its bound
  for (const CheckedOutput& o : outputs) {
    const TensorDecl& t = *o.decl;
    const Rounding out = rounding_of(p.call.output_dtypes.at(t.name));
    const auto& value = ref.value.at(t.name);
    std::vector<double> bound = ref.err.at(t.name);
    std::vector<std::uint8_t> over = ref.may_overflow.at(t.name);
    const std::vector<double>& got = o.got;
    for (std::size_t i = 0; i < bound.size(); ++i) {
      if (!o.real[i]) continue;
      if (out.unit > arithmetic.unit && std::isfinite(value[i])) {  // a non-finite value keeps its class rule
        const Bounded rounded =
            Bounded(value[i], bound[i], &arithmetic, over[i] != 0).rounded_to(out.unit, out.eta, out.max_finite);
        bound[i] = rounded.err();
        over[i] = rounded.may_overflow() ? 1 : 0;
      }
      may_overflow += over[i];
      // A bound that admits every finite value of the dtype checks nothing: exempt as an infinite one.
      if (std::isfinite(value[i]) && !(bound[i] < out.max_finite + std::fabs(value[i]))) ++exempt;
      else if (over[i] && !std::isfinite(got[i])) ++overflowed;
      else ++checked;
    }
    const BoundCheck check = check_bound(got, value, bound, over);
    utilisation = std::max(utilisation, check.max_utilisation);
    per_output[t.name + "_bound_utilisation"] = check.max_utilisation;
    per_output[t.name + "_rel_err_vs_fp64"] = compare_values(got, value).normwise_rel;
    if (!check.holds() && !failed) {  // the first output outside its bound gives the verdict; the rest are measured
      const auto i = static_cast<std::size_t>(check.first_violation);
      const auto shape = r.out.at(t.name).shape();
      const std::int64_t at = o.whole(i);
      Verdict v = Verdict::fail(
          "forward_accuracy",
          std::to_string(check.violations) + " of " + std::to_string(o.real_count) + " " + t.name +
              " elements outside their derived bound; first " + t.name + index_text(dims_index(t, at, p.call), shape) +
              packed_position_text(t, dims_index(t, at, p.call), p.call) + " = " + number_text(got[i]) + " vs fp64 " +
              number_text(value[i]) + " +- " + number_text(bound[i]) + " (|error| / bound = " +
              number_text(std::fabs(got[i] - value[i]) / bound[i]) + ")" + nonfinite_note(got[i], value[i], "fp64") +
              (over[i] ? "; some permitted order may overflow there: an Inf or NaN would be accepted, "
                         "a finite value must be within the bound of the orders that do not"
                       : "") +
              (subset ? " (" + std::to_string(checked_rows.size()) + " of " + std::to_string(T) + " rows checked)"
                      : ""));
      // The map in the subject's tensor, where the message points; rows not checked are unmarked (NaN).
      const std::vector<double> ratio = error_over_bound(got, value, bound, over);
      std::vector<double> in_dims(o.all.size(), NAN);
      for (std::size_t k = 0; k < ratio.size(); ++k)
        in_dims[static_cast<std::size_t>(dims_index(t, o.whole(k), p.call))] = ratio[k];
      v.map = element_map_of(t.name, MapMeasure::error_over_bound, shape, in_dims);
      failed = std::move(v);
    }
  }
  // Every output's figures, whatever the verdict: a failure is where they matter most.
  const auto with_metrics = [&](Verdict v) {
    v.metrics["bound_utilisation"] = utilisation;
    v.metrics["exempt"] = static_cast<double>(exempt);
    v.metrics["may_overflow"] = static_cast<double>(may_overflow);
    v.metrics["overflowed"] = static_cast<double>(overflowed);
    v.metrics.insert(per_output.begin(), per_output.end());
    return with_rows(std::move(v));
  };
  if (failed) return with_metrics(std::move(*failed));
  if (checked == 0)
    return with_metrics(Verdict::discard(
        "forward_accuracy", "no element checked: " + std::to_string(exempt) + " exempt, " + std::to_string(overflowed) +
                                " not finite where some permitted order may overflow" +
                                (unchecked.empty() ? "" : ", " + unchecked + " not checked")));
  std::string detail = subset_detail;
  if (exempt)
    detail += (detail.empty() ? "" : "; ") + std::to_string(exempt) +
              " elements exempt (their float evaluation may be any value in some permitted order: a divisor, rsqrt or "
              "log argument that may be 0, or a bound that admits every finite value)";
  if (may_overflow)
    detail += (detail.empty() ? "" : "; ") + std::to_string(may_overflow) +
              " elements may overflow in some permitted order (an Inf or NaN is accepted there, " +
              std::to_string(overflowed) + " were; a finite value is checked)";
  return with_metrics(Verdict::pass("forward_accuracy", detail));
}

Verdict oracle_agreement(const OpDef& op, const Case& c) {
  OpProblem p = materialise(op.decl, c);
  std::int64_t per_row = 1;
  for (const auto& t : op.decl.inputs)
    if (op.decl.has_rows(t) && p.call.has_input(t.name))
      per_row = std::max<std::int64_t>(per_row,
                                       static_cast<std::int64_t>(p.values.inputs.at(t.name).size()) / rows(op.decl, p));
  const std::int64_t keep = std::clamp<std::int64_t>(kOracleCheckElements / per_row, 1, rows(op.decl, p));
  p = row_slice(op.decl, p, 0, keep);
  const OutputValues fast = op.oracle(p.values), exact = op.multiprecision(p.values);
  const BoundedOutputs own = op.bounded(p.values, Arithmetic::float64());
  const Arithmetic float64 = Arithmetic::float64();  // outlives the filter's elements, which refer to it
  const FilteredOutputs filter = op.filtered ? op.filtered(p.values, float64) : FilteredOutputs{};
  Verdict v = Verdict::pass("oracle_agreement");
  for (const auto& t : op.decl.outputs) {
    const auto &m = exact.at(t.name), &e = own.err.at(t.name);
    std::vector<double> bound(m.size());
    for (std::size_t i = 0; i < m.size(); ++i) bound[i] = e[i] + 0x1p-52 * std::fabs(m[i]);  // m's own rounding
    // The double oracle's value, and Bounded's own (the centre of forward_accuracy's bounds), which
    // a reference may evaluate in another order (Eval::parts, Eval::covering).
    for (const auto& [which, got] :
         {std::pair<const char*, const std::vector<double>*>{"double oracle", &fast.at(t.name)},
          {"Bounded reference's value", &own.value.at(t.name)}}) {
      const BoundCheck check = check_bound(*got, m, bound, own.may_overflow.at(t.name));
      v.metrics["bound_utilisation"] = std::max(v.metrics["bound_utilisation"], check.max_utilisation);
      if (!check.holds()) {
        const auto i = static_cast<std::size_t>(check.first_violation);
        return Verdict::fail("oracle_agreement", std::string("parity's ") + which +
                                                     " is outside its own bound of the MPFR one at " + t.name + "[" +
                                                     std::to_string(i) + "]: " + number_text((*got)[i]) + " vs " +
                                                     number_text(m[i]) + " +- " + number_text(bound[i]));
      }
    }
    if (!filter.contains(t.name)) continue;
    // The filter's value within its own d of MPFR's, and its lo no larger than Bounded's bound.
    const std::vector<Filtered>& filtered = filter.at(t.name);
    for (std::size_t i = 0; i < m.size(); ++i) {
      const double fv = filtered[i].value(), fd = filtered[i].dev(), flo = filtered[i].lo();
      // Not finite (in the value, its d or MPFR's), or where some order may overflow: nothing to
      // compare, as check_bound accepts there.
      const bool near = !std::isfinite(fd) || !std::isfinite(fv) || !std::isfinite(m[i]) ||
                        own.may_overflow.at(t.name)[i] != 0 || std::fabs(fv - m[i]) <= fd + 0x1p-52 * std::fabs(m[i]);
      if (near && !(flo > e[i])) continue;
      return Verdict::fail(
          "oracle_agreement",
          std::string("parity's filter ") +
              (near ? "has a lower bound above Bounded's bound" : "is outside its own bound of the MPFR value") +
              " at " + t.name + "[" + std::to_string(i) + "]: " + number_text(fv) + " +- " + number_text(fd) +
              " vs MPFR " + number_text(m[i]) + ", lo " + number_text(flo) + " vs Bounded's " + number_text(e[i]));
    }
  }
  return v;
}

Verdict cross_backend_bitwise(const OpDef& op, const Case& c, OpSubject& s, OpSubject& twin) {
  const OpProblem p = materialise(op.decl, c);
  const Run a = run(op.decl, s, p.call), b = run(op.decl, twin, p.call);
  if (!a.fault.empty() || !b.fault.empty())
    return Verdict::fail("cross_backend_bitwise", a.fault.empty() ? b.fault : a.fault);
  return bitwise("cross_backend_bitwise", first_difference(op.decl, p.call, a.out, b.out),
                 "the subject and its host twin differ");
}

}  // namespace parity::ops
