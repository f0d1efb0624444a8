#include <parity/families/transition/transition_cases.hpp>

#include <cmath>
#include <set>
#include <string>
#include <utility>

#include <parity/core/error.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/properties/gen/values.hpp>

namespace parity::transition {
namespace {

constexpr const char* kFamilyName = "transition";

std::string sigma_prev_key(std::int64_t b) { return "sigma_prev." + std::to_string(b); }
std::string sigma_key(std::int64_t b) { return "sigma." + std::to_string(b); }

// The rows of `c` (its dim B, 0 where it has none).
std::int64_t rows_of(const Case& c) {
  const auto it = c.dims.find("B");
  return it == c.dims.end() ? 0 : it->second;
}

// A row at a corner: sigma 1, one float step below 1, near 0 or a thousandth in (0, 1); then
// sigma_prev a fraction of it, 0, or one float step below it (-1 below). The simplest first.
rc::Gen<std::pair<float, float>> corner_row() {
  const auto sigma =
      rc::gen::weightedOneOf<double>({{2, gen::shrinking_element<double>({1.0, 1.0 - 0x1p-24, 1e-3, 1e-4})},
                                      {1, rc::gen::map(rc::gen::inRange(1, 1000), [](int k) { return k / 1000.0; })}});
  return rc::gen::mapcat(sigma, [](double s) {
    return rc::gen::map(gen::shrinking_element<double>({0.5, 0.0, -1.0, 0.9, 0.999}), [s](double f) {
      const auto sf = static_cast<float>(s);
      const float prev = f < 0 ? std::nextafter(sf, 0.0f) : static_cast<float>(s * f);
      return std::pair{sf, prev};
    });
  });
}

// `c` with every row at a corner.
rc::Gen<Case> at_corners(Case c) {
  return rc::gen::map(
      rc::gen::container<std::vector<std::pair<float, float>>>(static_cast<std::size_t>(rows_of(c)), corner_row()),
      [c](const std::vector<std::pair<float, float>>& rows) {
        Case out = c;
        for (std::size_t b = 0; b < rows.size(); ++b) {
          out.params[sigma_key(static_cast<std::int64_t>(b))] = rows[b].first;
          out.params[sigma_prev_key(static_cast<std::int64_t>(b))] = rows[b].second;
        }
        return out;
      });
}

// Whether `key` is sigma_prev.<b> of a row b of `c`.
bool is_row_key(const Case& c, const std::string& key) {
  for (std::int64_t b = 0; b < rows_of(c); ++b)
    if (key == sigma_prev_key(b)) return true;
  return false;
}

Case as_family(Case c) {
  c.family = kFamilyName;
  return c;
}

// The sigma_prev.<b> of `c`, one per row, or none; InputError for another.
std::vector<float> sigma_prevs(const Case& c) {
  std::vector<float> out;
  for (std::int64_t b = 0; b < rows_of(c); ++b)
    if (c.params.contains(sigma_prev_key(b))) out.push_back(static_cast<float>(c.params.at(sigma_prev_key(b))));
  if (!out.empty() && static_cast<std::int64_t>(out.size()) != rows_of(c))
    throw InputError("case.params.sigma_prev.<b>: " + std::to_string(out.size()) + " of " + std::to_string(rows_of(c)) +
                     " rows have one; a case holds one for every row or none");
  return out;
}

}  // namespace

const ops::OpDecl& family_decl() {
  static const ops::OpDecl decl = [] {
    ops::OpDecl d = ops::transition_step::TransitionStep::declaration();
    for (auto& t : d.inputs)
      if (t.name == "sigma") t.min = kMinSigma;
    return d;
  }();
  return decl;
}

Case family_case(const std::vector<double>& sigmas, std::int64_t n, double step) {
  Case c;
  c.family = "transition";
  c.seed = 1;
  c.dims = {{"B", static_cast<std::int64_t>(sigmas.size())}, {"n", n}};
  c.params = {{"type", 0.0},
              {"step", static_cast<float>(step)},
              {"sigma_max", 0.98f},
              {"noise_level", 0.7f},
              {"normaliser", 1.0},
              {"dtype.act", ops::dtype_code(DType::f32)},
              {"dtype.f32", ops::dtype_code(DType::f32)}};
  for (std::size_t b = 0; b < sigmas.size(); ++b)
    c.params["sigma." + std::to_string(b)] = static_cast<float>(sigmas[b]);
  return c;
}

double step_to(float sigma, float sigma_prev) { return double(sigma) - double(sigma_prev); }

Case step_case(Case c) {
  c.family = "transition_step";
  std::erase_if(c.params, [](const auto& kv) { return kv.first.rfind("sigma_prev.", 0) == 0; });
  return c;
}

rc::Gen<Case> family_cases(const ops::OpDef& op, bool strided_layouts) {
  const auto op_cases = rc::gen::map(ops::op_case(op, strided_layouts), &as_family);
  return rc::gen::mapcat(rc::gen::pair(op_cases, rc::gen::inRange(0, 2)), [](const std::pair<Case, int>& drawn) {
    return drawn.second == 0 ? rc::gen::just(drawn.first) : at_corners(drawn.first);
  });
}

const gen::CaseRules& family_rules() {
  static const gen::CaseRules rules{
      .check_contract =
          [](const Case& c) {
            if (c.family != kFamilyName) throw InputError("case.family: '" + c.family + "' is not " + kFamilyName);
            ops::check_contract(family_decl(), step_case(c));
            for (const auto& [key, value] : c.params)
              if (key.rfind("sigma_prev.", 0) == 0 && !is_row_key(c, key))
                throw InputError("case.params." + key + ": not a row of the case's " + std::to_string(rows_of(c)));
            const std::vector<float> prevs = sigma_prevs(c);
            for (std::size_t b = 0; b < prevs.size(); ++b) {
              const auto row = static_cast<std::int64_t>(b);
              const auto sigma = static_cast<float>(c.params.at(sigma_key(row)));
              const std::string field = "case.params." + sigma_prev_key(row);
              if (!(prevs[b] >= 0.0f && prevs[b] <= sigma))
                throw InputError(field + ": " + std::to_string(prevs[b]) + " is outside [0, " + sigma_key(row) + "]");
              if (ops::transition_step::sigma_prev_of(sigma, step_to(sigma, prevs[b])) != prevs[b])
                throw InputError(field + ": no step lands on it from " + sigma_key(row));
            }
          },
      .conform =
          [](Case c) {
            Case conformed = ops::op_rules(family_decl()).conform(step_case(c));
            for (std::int64_t b = 0; b < rows_of(conformed); ++b)
              if (c.params.contains(sigma_prev_key(b)))
                conformed.params[sigma_prev_key(b)] = c.params.at(sigma_prev_key(b));
            return as_family(std::move(conformed));
          }};
  return rules;
}

RowCall row_call(const Case& c) {
  RowCall rc{.call = ops::materialise(family_decl(), step_case(c)).call};
  const Tensor& sigma = rc.call.input("sigma");
  const std::vector<float> prevs = sigma_prevs(c);
  for (std::int64_t b = 0; b < sigma.numel(); ++b)
    rc.steps.push_back(prevs.empty()
                           ? rc.call.param("step")
                           : step_to(static_cast<float>(sigma.value_at(b)), prevs[static_cast<std::size_t>(b)]));
  return rc;
}

RowCall one_step(ops::OpCall call) {
  const std::vector<double> steps(static_cast<std::size_t>(call.extent("B")), call.param("step"));
  return {.call = std::move(call), .steps = steps};
}

ops::OpOutputs per_step(const RowCall& rc, const std::function<ops::OpOutputs(const ops::OpCall&)>& run) {
  const std::set<double> steps(rc.steps.begin(), rc.steps.end());
  ops::OpOutputs out;
  for (const double step : steps) {
    ops::OpCall call = rc.call;
    call.params["step"] = step;
    ops::OpOutputs got = run(call);
    if (out.empty()) {
      out = std::move(got);
      continue;
    }
    for (auto& [name, t] : out) {
      const Tensor& from = got.at(name);
      const std::int64_t per_row = t.numel() / static_cast<std::int64_t>(rc.steps.size());
      for (std::size_t b = 0; b < rc.steps.size(); ++b)
        if (rc.steps[b] == step)
          for (std::int64_t i = 0; i < per_row; ++i) {
            const std::int64_t at = static_cast<std::int64_t>(b) * per_row + i;
            t.set_bits(at, from.bits_at(at));
          }
    }
  }
  return out;
}

}  // namespace parity::transition
