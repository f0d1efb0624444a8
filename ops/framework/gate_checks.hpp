#pragma once
// The skeleton of a gate section built from ops (families/lora/lora_gate_section.hpp,
// families/transition/transition_gate.hpp): a row per reference shape, each check of a row run,
// logged with its time and its failure listed; the ops' generic checks run on each op's gate case
// with the op's definition raised for the gate's shapes; the figures' shapes checked against the
// contracts; a verdict's metric as a JSON field.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/verdict.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::ops {

// A generic property of an op (op_checks.hpp).
using OpCheck = Verdict (*)(const OpDef&, const Case&, OpSubject&);

// One row of a gate section: the checks of `subject` at one shape (as the row's label names it).
class GateRow {
 public:
  // `op_case(op)`: the op `op`'s gate case at this shape; `elements` and `work`: the caps of the
  // ops' definitions (gate_def).
  GateRow(std::string subject, std::string shape, std::ostream* log, std::function<Case(const std::string&)> op_case,
          std::int64_t elements, std::int64_t work);

  // Runs `verdict` as the check `name`: an exception is a failure ("the subject threw: ..."); a
  // line "  <subject> <shape> <name>: <outcome> (<seconds> s)" goes to the log, if any; a verdict
  // that does not hold is listed in the row's failures as "<name>: <detail>". Safe to call from
  // several threads at once: the log line and the failure list are written under one lock (the
  // list in the order the checks finish), the verdict is computed outside it.
  Verdict run(const std::string& name, const std::function<Verdict()>& verdict);
  // The op `op`'s check `f` as the check "<op>.<property>", on the op's gate case with `layouts`,
  // on a fresh instance of the op's subject named as the row's subject; with `only`, that
  // subject's output `only` alone, the others unchecked, named "<op>.<property>(<only>)".
  Verdict op(const std::string& op, const std::string& property, OpCheck f,
             const std::map<std::string, Layout>& layouts = {}, const std::string& only = "");

  // The row's fields; shape and subject are set.
  nlohmann::json fields;
  // The failures so far; read it once no run() is in progress.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  std::string subject_, shape_;
  std::ostream* log_;
  std::function<Case(const std::string&)> op_case_;
  std::int64_t elements_, work_;
  std::mutex mutex_;  // guards *log_ and failures_
  std::vector<std::string> failures_;
};

struct GateSection {
  nlohmann::json rows = nlohmann::json::array();
  bool all_hold = true;
};

// A section of a row per shape of `shapes`: `subject` at shape.label(), filled by
// `fill(row, shape)`, then given its failures and, under `reference`, figures[i].reference (the
// reference figures of shape i). `op_case(shape, op)` is the op `op`'s gate case at a shape;
// `elements` and `work` the caps of the ops' definitions (gate_def).
template <class Shape, class Figures, class Fill>
GateSection gate_section(const std::string& subject, const std::vector<Shape>& shapes, const Figures& figures,
                         std::ostream* log, Case (*op_case)(const Shape&, const std::string&), std::int64_t elements,
                         std::int64_t work, Fill fill) {
  GateSection section;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& shape = shapes[i];
    GateRow row(
        subject, shape.label(), log, [&](const std::string& op) { return op_case(shape, op); }, elements, work);
    fill(row, shape);
    row.fields["failures"] = row.failures();
    row.fields["reference"] = figures[i].reference;
    section.all_hold = section.all_hold && row.failures().empty();
    section.rows.push_back(std::move(row.fields));
  }
  return section;
}

// The op family `op`'s definition with max_elements and reach_elements at least `elements`,
// max_work and reach_work at least `work`: room for a gate's shapes, which its generated cases do
// not reach, with every row checked (the caps only ever raised); no filter (OpDef::filter): the
// gate reports every output's bound utilisation.
OpDef gate_def(const std::string& op, std::int64_t elements, std::int64_t work);

// The metric `key` of `v`, or null where the verdict has none.
nlohmann::json metric(const Verdict& v, const std::string& key);

// `shapes` (the first alone when `quick`), each passed to `check`, which throws InputError for a
// shape outside a contract: that is a figure error (properties::figure_error) naming
// "<section>.shapes[i]" and the reason, before any work.
template <class Shape, class Check>
std::vector<Shape> checked_shapes(std::vector<Shape> shapes, bool quick, const std::string& section, Check check) {
  if (quick) shapes.resize(1);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    try {
      check(shapes[i]);
    } catch (const InputError& e) {
      properties::figure_error(section + ".shapes[" + std::to_string(i) + "]", e.what());
    }
  }
  return shapes;
}

}  // namespace parity::ops
