#include <parity/ops/framework/op_problem.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <tuple>
#include <utility>

#include <parity/core/case_fields.hpp>
#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/random_fill.hpp>

namespace parity::ops {
namespace {

std::string number(double v) { return shortest_decimal(v); }

double param_of(const Case& c, const std::string& key) {
  const auto it = c.params.find(key);
  if (it == c.params.end()) throw InputError("case.params." + key + ": missing");
  return it->second;
}

std::map<std::string, DType> group_dtypes(const OpDecl& d, const Case& c) {
  std::map<std::string, DType> out;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) out[t.name] = case_dtype(t, c);
  return out;
}

double scale_of(const TensorDecl& t, const Case& c) {
  return t.scales.size() > 1 ? param_of(c, "scale." + t.name) : t.scales.front();
}

// A 2-D or 1-D logical tensor placed under `l`: 1-D as a column [n, 1] whose lines are its elements.
Tensor place(const Tensor& logical, const Layout& l) {
  if (logical.shape().size() == 2) return l.place(logical);
  const std::int64_t n = logical.dim(0);
  Tensor column = Tensor::zeros(logical.dtype(), {n, 1});
  for (std::int64_t i = 0; i < n; ++i) column.set_bits(i, logical.bits_at(i));
  const Tensor placed = l.place(column);
  Tensor out = Tensor::strided(logical.dtype(), {n}, {placed.strides()[0]}, placed.offset(), placed.storage_elements());
  std::copy(placed.storage_bytes().begin(), placed.storage_bytes().end(), out.storage_bytes().begin());
  return out;
}

}  // namespace

int dtype_code(DType t) {
  switch (t) {
    case DType::bf16:
      return 16;
    case DType::f32:
      return 32;
    case DType::f64:
      return 64;
    case DType::f16:
      return 116;
  }
  return 0;
}

DType case_dtype(const TensorDecl& t, const Case& c) {
  const std::string key = "dtype." + t.group();
  return dtype_from_code(param_of(c, key), "case.params." + key);
}

DType dtype_from_code(double code, const std::string& field) {
  if (code == 16) return DType::bf16;
  if (code == 32) return DType::f32;
  if (code == 64) return DType::f64;
  if (code == 116) return DType::f16;
  throw InputError(field + ": expected 16 (bf16), 32 (f32), 64 (f64) or 116 (f16), not " + number(code));
}

std::string param_value_refusal(const ParamDecl& p, double v) {
  if (!(v >= p.min && v <= p.max) || static_cast<double>(static_cast<float>(v)) != v)
    return "expected a float32 value in [" + number(p.min) + ", " + number(p.max) + "]";
  // A parameter whose declared values are all integers (a switch, a count) takes integers only.
  const auto integral = [](double x) { return x == std::nearbyint(x); };
  if (!integral(v) && std::all_of(p.values.begin(), p.values.end(), integral))
    return "expected an integer in [" + number(p.min) + ", " + number(p.max) + "] (every declared value is one)";
  return "";
}

std::int64_t max_storage(std::int64_t elements) { return std::clamp(16 * elements, kMaxStorage, 4 * kElementsLimit); }

RaggedLengths case_lengths(const OpDecl& d, const Case& c) {
  RaggedLengths out;
  for (const auto& e : d.extents)
    for (std::int64_t b = 0; e.ragged && b < c.dim(d.row_extent); ++b)
      out[e.name].push_back(static_cast<std::int64_t>(c.param(ragged_key(e, b), 1.0)));
  return out;
}

void check_contract(const OpDecl& d, const Case& c) {
  if (c.family != d.name) throw InputError("case.family: '" + c.family + "' is not " + d.name);
  refuse_unread_fields(c, {.family = d.name, .layouts = true, .probe_row = true, .patches = true});
  // The parameters an op's case holds (op_cases.cpp): each declared parameter, dtype.<group> of
  // each dtype group, scale.<input> of each input with more than one scale.
  std::vector<std::string> known;
  for (const auto& p : d.params) known.push_back(p.name);
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list)
      if (std::find(known.begin(), known.end(), "dtype." + t.group()) == known.end())
        known.push_back("dtype." + t.group());
  for (const auto& t : d.inputs)
    if (t.scales.size() > 1) known.push_back("scale." + t.name);
  std::string known_text;
  for (const auto& k : known) known_text += (known_text.empty() ? "" : ", ") + k;
  for (const auto& t : d.inputs)
    if (t.per_row()) known_text += ", " + t.name + ".<row>";
  for (const auto& e : d.extents)
    if (e.ragged) known_text += ", " + e.name + ".<row> (row's length)";
  const auto row_value = [&](const std::string& key) {
    const auto rows = c.dims.find(d.row_extent);
    const auto in_rows = [&](std::int64_t b) { return b >= 0 && rows != c.dims.end() && b < rows->second; };
    return std::any_of(d.inputs.begin(), d.inputs.end(),
                       [&](const TensorDecl& t) { return in_rows(row_of_value_key(t, key)); }) ||
           std::any_of(d.extents.begin(), d.extents.end(),
                       [&](const ExtentDecl& e) { return in_rows(row_of_ragged_key(e, key)); });
  };
  refuse_unknown_params(
      c,
      [&](const std::string& key) {
        return std::find(known.begin(), known.end(), key) != known.end() || row_value(key);
      },
      known_text);
  for (const auto& [name, v] : c.dims) {
    const ExtentDecl* e = nullptr;
    for (const auto& x : d.extents)
      if (x.name == name) e = &x;
    if (!e) throw InputError("case.dims." + name + ": not an extent of " + d.name);
    if (v < e->min || v > e->limit)
      throw InputError("case.dims." + name + ": outside [" + std::to_string(e->min) + ", " + std::to_string(e->limit) +
                       "]");
  }
  for (const auto& e : d.extents) c.dim(e.name);
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      const auto shape = eval_shape(t, c.dims);
      const std::int64_t extra = d.has_rows(t) ? elements_of(shape) / std::max<std::int64_t>(shape[0], 1) : 0;
      if (static_cast<double>(elements_of(shape)) + static_cast<double>(extra) > static_cast<double>(kElementsLimit))
        throw InputError("case.dims: " + t.name + " would hold more than " + std::to_string(kElementsLimit) +
                         " elements");
    }
  std::map<std::string, std::int64_t> taller = c.dims;
  taller[d.row_extent] += 1;
  if (const std::int64_t w = work_of(d, taller); w > kWorkLimit)
    throw InputError("case.dims: the work " + d.work + " with one more " + d.row_extent + " would be " +
                     std::to_string(w) + ", more than " + std::to_string(kWorkLimit));
  const auto dtypes = group_dtypes(d, c);
  for (const auto& [name, t] : dtypes) {
    const std::string& group = d.tensor(name).group();
    const std::vector<DType>& allowed = d.dtypes_of(group);
    if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
      throw InputError("case.params.dtype." + group + ": " + std::string(dtype_name(t)) + " is not a dtype of " +
                       d.name + "'s " + group);
  }
  for (const auto& p : d.params)
    if (const std::string why = param_value_refusal(p, param_of(c, p.name)); !why.empty())
      throw InputError("case.params." + p.name + ": " + why);
  for (const auto& t : d.inputs)
    for (std::int64_t b = 0; t.per_row() && b < c.dim(d.row_extent); ++b)
      if (const std::string why =
              param_value_refusal({t.name, t.values, t.min, t.max}, param_of(c, row_value_key(t, b)));
          !why.empty())
        throw InputError("case.params." + row_value_key(t, b) + ": " + why);
  for (const auto& e : d.extents)
    for (std::int64_t b = 0; e.ragged && b < c.dim(d.row_extent); ++b) {
      const double n = param_of(c, ragged_key(e, b));
      if (!(n >= 1 && n <= static_cast<double>(c.dim(e.name))) || n != std::nearbyint(n))
        throw InputError("case.params." + ragged_key(e, b) + ": row " + std::to_string(b) + "'s length of " + e.name +
                         " must be an integer in [1, case.dims." + e.name + " = " + std::to_string(c.dim(e.name)) +
                         "], not " + number(n));
    }
  for (const auto& t : d.inputs)
    if (t.scales.size() > 1 && std::find(t.scales.begin(), t.scales.end(), scale_of(t, c)) == t.scales.end())
      throw InputError("case.params.scale." + t.name + ": not one of the declared scales");
  for (const auto& [name, l] : c.layouts) {
    const TensorDecl& t = d.tensor(name);
    if (std::find_if(d.inputs.begin(), d.inputs.end(),
                     [&name = name](const TensorDecl& x) { return x.name == name; }) == d.inputs.end())
      throw InputError("case.layouts." + name + ": not an input");
    if (!is_present(t, c.params))
      throw InputError("case.layouts." + name + ": the case has no " + name + " (" + t.present_if + " is 0)");
    if (t.shape.size() == 1 && l.transposed)
      throw InputError("case.layouts." + name + ": a 1-D operand is not transposed");
    if (l.ld_pad < 0 || l.ld_pad > Layout::kMaxPadOrOffset || l.offset < 0 || l.offset > Layout::kMaxPadOrOffset)
      throw InputError("case.layouts." + name + ": ld_pad and offset must lie in [0, 2^20]");
    auto shape = eval_shape(t, c.dims);
    if (d.has_rows(t)) shape[0] += 1;
    if (shape.size() == 1) shape.push_back(1);
    if (const std::int64_t most = max_storage(shape[0] * shape[1]);
        l.storage_elements(shape[0], shape[1]) > static_cast<double>(most))
      throw InputError("case.layouts." + name + ": its storage would exceed " + std::to_string(most) + " elements");
  }
  for (std::size_t i = 0; i < c.patches.size(); ++i) {
    const Patch& p = c.patches[i];
    const std::string field = "case.patches[" + std::to_string(i) + "]";
    if (std::find_if(d.inputs.begin(), d.inputs.end(), [&](const TensorDecl& x) { return x.name == p.operand; }) ==
        d.inputs.end())
      throw InputError(field + ".operand: '" + p.operand + "' is not an input of " + d.name);
    if (d.tensor(p.operand).per_row())
      throw InputError(field + ".operand: " + p.operand + " holds a value per row, the case's " + p.operand +
                       ".<row> parameters, and takes no patch");
    if (!is_present(d.tensor(p.operand), c.params))
      throw InputError(field + ".operand: the case has no " + p.operand + " (" + d.tensor(p.operand).present_if +
                       " is 0)");
    if (p.index < 0 || p.index >= elements_of(eval_shape(d.tensor(p.operand), c.dims)))
      throw InputError(field + ".index: outside " + p.operand);
    if (const ExtentDecl* e = ragged_extent_of(d, d.tensor(p.operand));
        e != nullptr && !is_real_element(d, d.tensor(p.operand), c.dims, case_lengths(d, c), p.index))
      throw InputError(field + ".index: " + std::to_string(p.index) + " is padding of " + p.operand +
                       " (a position past its row's length case.params." + e->name + ".<row>), which no subject sees");
    if (p.dtype != dtypes.at(p.operand))
      throw InputError(field + ".dtype: " + std::string(dtype_name(p.dtype)) + ", but the case's " + p.operand +
                       " is " + std::string(dtype_name(dtypes.at(p.operand))) +
                       " (an op's patches hold the operand's own bits)");
    if (dtype_size(p.dtype) < 8 && (p.bits >> (8 * dtype_size(p.dtype))) != 0)
      throw InputError(field + ".bits: wider than " + std::string(dtype_name(p.dtype)));
  }
  if (c.probe_row < 0 || c.probe_row >= c.dim(d.row_extent))
    throw InputError("case.probe_row: outside [0, " + d.row_extent + ")");
}

OpProblem materialise(const OpDecl& d, const Case& c, std::int64_t extra_rows, bool contiguous) {
  check_contract(d, c);
  OpProblem p;
  const auto dtypes = group_dtypes(d, c);
  p.values.extents = c.dims;
  p.values.extents[d.row_extent] += extra_rows;
  for (const auto& param : d.params) p.values.params[param.name] = c.params.at(param.name);
  p.call.extents = p.values.extents;
  p.call.params = p.values.params;
  for (const auto& e : d.extents)  // a row past the case's (the extra rows) takes row 0's length
    for (std::int64_t b = 0; e.ragged && b < p.values.extents.at(d.row_extent); ++b)
      p.values.lengths[e.name].push_back(
          static_cast<std::int64_t>(c.params.at(ragged_key(e, b < c.dim(d.row_extent) ? b : 0))));
  p.call.lengths = p.values.lengths;
  for (std::size_t k = 0; k < d.inputs.size(); ++k) {
    const TensorDecl& t = d.inputs[k];
    if (!is_present(t, c.params)) continue;  // k still numbers the declared inputs: the others' bits stay
    const auto shape = eval_shape(t, p.values.extents);
    Tensor logical = Tensor::zeros(dtypes.at(t.name), shape);
    const double scale = t.stddev * scale_of(t, c);
    // A row past the case's (the extra rows) takes row 0's value: under --param <name>=V that is
    // V, and a reproducer replays it.
    if (t.per_row()) {
      for (std::int64_t i = 0; i < logical.numel(); ++i)
        logical.set_value(i, c.param(row_value_key(t, i < c.dim(d.row_extent) ? i : 0), t.values.front()));
    } else {  // philox_normal(seed, k + 1, i), drawn a block at a time (the same bits)
      std::vector<double> draws(static_cast<std::size_t>(std::min<std::int64_t>(logical.numel(), 4096)));
      for (std::int64_t first = 0; first < logical.numel(); first += static_cast<std::int64_t>(draws.size())) {
        const std::int64_t count = std::min(logical.numel() - first, static_cast<std::int64_t>(draws.size()));
        philox_normals(c.seed, static_cast<std::uint32_t>(k + 1), static_cast<std::uint64_t>(first), count,
                       draws.data());
        for (std::int64_t i = 0; i < count; ++i)
          logical.set_value(first + i, t.mean + scale * draws[static_cast<std::size_t>(i)]);
      }
    }
    for (const Patch& patch : c.patches)
      if (patch.operand == t.name) logical.set_bits(patch.index, patch.bits);
    if (ragged_extent_of(d, t) != nullptr)  // +0 at every padding element (a row's elements past its real ones)
      for (std::int64_t r = 0, width = logical.numel() / shape[0]; r < shape[0]; ++r)
        for (std::int64_t i = real_width(d, t, p.values.extents, p.values.lengths, r); i < width; ++i)
          logical.set_value(r * width + i, 0.0);
    p.values.shapes[t.name] = shape;
    p.values.inputs[t.name] = logical.values();
    const auto l = c.layouts.find(t.name);
    if (contiguous || l == c.layouts.end()) p.call.inputs[t.name] = std::move(logical);
    else p.call.inputs[t.name] = place(logical, l->second);
  }
  for (const auto& t : d.outputs) {
    p.values.shapes[t.name] = eval_shape(t, p.values.extents);
    p.call.output_dtypes[t.name] = dtypes.at(t.name);
  }
  return p;
}

namespace {

// `p`'s problem with the rows `from` (each a row of `p`, or kZeroRow: a row that takes row 0's
// ragged lengths): its extents but the row extent, parameters, output dtypes and inputs not led by
// the row extent; each row-led input `rows(decl, tensor, values, per_row)`, a pair of the new
// tensor and its values; each ragged extent's lengths those of the rows `from`.
template <class Rows>
OpProblem with_rows(const OpDecl& d, const OpProblem& p, const std::vector<std::int64_t>& from, const Rows& rows) {
  OpProblem out;
  const auto n = static_cast<std::int64_t>(from.size());
  out.values.extents = p.values.extents;
  out.values.extents[d.row_extent] = n;
  for (const auto& [name, lengths] : p.values.lengths)
    for (const std::int64_t r : from) out.values.lengths[name].push_back(lengths.at(r == kZeroRow ? 0 : r));
  out.call.lengths = out.values.lengths;
  out.values.params = p.values.params;
  out.call.extents = out.values.extents;
  out.call.params = p.call.params;
  out.call.output_dtypes = p.call.output_dtypes;
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) out.values.shapes[t.name] = eval_shape(t, out.values.extents);
  for (const auto& t : d.inputs) {
    if (!p.call.inputs.contains(t.name)) continue;  // an absent optional input
    const Tensor& full = p.call.inputs.at(t.name);
    const auto& values = p.values.inputs.at(t.name);
    if (!d.has_rows(t)) {
      out.call.inputs[t.name] = full;
      out.values.inputs[t.name] = values;
      continue;
    }
    const std::int64_t per_row = full.numel() / std::max<std::int64_t>(full.dim(0), 1);
    std::tie(out.call.inputs[t.name], out.values.inputs[t.name]) = rows(t, full, values, per_row);
  }
  return out;
}

}  // namespace

OpProblem row_slice(const OpDecl& d, const OpProblem& p, std::int64_t begin, std::int64_t end) {
  std::vector<std::int64_t> from(static_cast<std::size_t>(end - begin));
  std::iota(from.begin(), from.end(), begin);
  return with_rows(
      d, p, from, [&](const TensorDecl&, const Tensor& full, const std::vector<double>& values, std::int64_t per_row) {
        return std::pair(full.rows(begin, end),
                         std::vector<double>(values.begin() + begin * per_row, values.begin() + end * per_row));
      });
}

OpProblem row_gather(const OpDecl& d, const OpProblem& p, const std::vector<std::int64_t>& order) {
  const auto n = static_cast<std::int64_t>(order.size());
  return with_rows(
      d, p, order,
      [&](const TensorDecl& t, const Tensor& full, const std::vector<double>& values, std::int64_t per_row) {
        std::vector<std::int64_t> shape = full.shape();
        shape[0] = n;
        Tensor rows = Tensor::zeros(full.dtype(), shape);  // +0 in every element
        std::vector<double> v(static_cast<std::size_t>(n * per_row), 0.0);
        for (std::int64_t k = 0; k < n; ++k) {
          const std::int64_t from = order[static_cast<std::size_t>(k)];
          if (from == kZeroRow && t.per_row()) {  // a padding row's value: row 0's of `p`
            rows.set_value(k, values.empty() ? t.values.front() : values.front());
            v[static_cast<std::size_t>(k)] = rows.value_at(k);
          }
          if (from == kZeroRow) continue;
          std::copy_n(values.begin() + from * per_row, per_row, v.begin() + k * per_row);
          if (full.is_contiguous()) {  // the row's bytes at once
            const std::size_t bytes = static_cast<std::size_t>(per_row) * dtype_size(full.dtype());
            if (bytes > 0)
              std::memcpy(rows.storage_bytes().data() + static_cast<std::size_t>(k) * bytes,
                          full.storage_bytes().data() + static_cast<std::size_t>(from) * bytes, bytes);
            continue;
          }
          for (std::int64_t i = 0; i < per_row; ++i) rows.set_bits(k * per_row + i, full.bits_at(from * per_row + i));
        }
        return std::pair(std::move(rows), std::move(v));
      });
}

std::int64_t rows(const OpDecl& d, const OpProblem& p) { return p.values.extents.at(d.row_extent); }

}  // namespace parity::ops
