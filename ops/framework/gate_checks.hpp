#pragma once
// What a gate section built from ops (ops/lora_forward/lora_gate.hpp,
// ops/transition_step/transition_gate.hpp) does for each check of a row: runs it, logs it with its
// time, lists its failure; the figures' shapes checked against the contracts; the op definition
// with its caps raised for the gate's shapes; a verdict's metric as a JSON field.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/verdict.hpp>
#include <parity/ops/framework/op_reference.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::ops {

// The checks of one gate row: `subject` on the shape `shape` (as the row's label names it).
class GateChecks {
 public:
  GateChecks(std::string subject, std::string shape, std::ostream* log);

  // Runs `verdict` as the check `name`: an exception is a failure ("the subject threw: ..."); a
  // line "  <subject> <shape> <name>: <outcome> (<seconds> s)" goes to the log, if any; a verdict
  // that does not hold is listed in failures() as "<name>: <detail>". Safe to call from several
  // threads at once: the log line and the failure list are written under one lock (the list in the
  // order the checks finish), the verdict is computed outside it.
  Verdict run(const std::string& name, const std::function<Verdict()>& verdict);
  // The failures so far; read it once no run() is in progress.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  std::string subject_, shape_;
  std::ostream* log_;
  std::mutex mutex_;  // guards *log_ and failures_
  std::vector<std::string> failures_;
};

// The op family `op`'s definition with max_elements and reach_elements at least `elements`,
// max_work and reach_work at least `work`: room for a gate's shapes, which its generated cases do
// not reach, with every row checked (the caps only ever raised).
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
