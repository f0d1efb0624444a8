#include <parity/ops/framework/gate_checks.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <ostream>
#include <utility>

#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {
namespace {

// A subject's one output, the others unchecked: forward_accuracy's utilisation of that output.
class OneOutput final : public OpSubject {
 public:
  OneOutput(OpSubject& s, const OpDecl& d, std::string keep) : s_(s), keep_(std::move(keep)) {
    for (const auto& t : d.outputs)
      if (t.name != keep_) others_.push_back(t.name);
  }
  Arithmetic arithmetic() const override { return s_.arithmetic(); }
  std::vector<std::string> unchecked_outputs() const override { return others_; }
  OpOutputs run(const OpCall& call) override {
    OpOutputs all = s_.run(call);
    return {{keep_, all.at(keep_)}};
  }

 private:
  OpSubject& s_;
  std::string keep_;
  std::vector<std::string> others_;
};

}  // namespace

GateRow::GateRow(std::string subject, std::string shape, std::ostream* log,
                 std::function<Case(const std::string&)> op_case, std::int64_t elements, std::int64_t work)
    : subject_(std::move(subject)),
      shape_(std::move(shape)),
      log_(log),
      op_case_(std::move(op_case)),
      elements_(elements),
      work_(work) {
  fields["shape"] = shape_;
  fields["subject"] = subject_;
}

Verdict GateRow::run(const std::string& name, const std::function<Verdict()>& verdict) {
  const auto start = std::chrono::steady_clock::now();
  Verdict v;
  try {
    v = verdict();
  } catch (const std::exception& e) {
    v = Verdict::fail(name, std::string("the subject threw: ") + e.what());
  }
  const std::lock_guard lock(mutex_);
  if (log_)
    *log_ << "  " << subject_ << " " << shape_ << " " << name << ": " << outcome_name(v.outcome) << " ("
          << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n"
          << std::flush;
  if (!v.holds()) failures_.push_back(name + ": " + v.detail);
  return v;
}

Verdict GateRow::op(const std::string& op, const std::string& property, OpCheck f,
                    const std::map<std::string, Layout>& layouts, const std::string& only) {
  return run(op + "." + property + (only.empty() ? "" : "(" + only + ")"), [&] {
    const OpDef def = gate_def(op, elements_, work_);
    Case c = op_case_(op);
    c.layouts = layouts;
    const auto made = find_op_family(op).runnable(subject_).make();
    if (only.empty()) return f(def, c, *made);
    OneOutput one(*made, def.decl, only);
    return f(def, c, one);
  });
}

OpDef gate_def(const std::string& op, std::int64_t elements, std::int64_t work) {
  OpDef def = find_op_family(op).def();
  def.decl.max_elements = std::max(def.decl.max_elements, elements);
  def.decl.reach_elements = std::max(reach_elements_of(def.decl), elements);
  def.decl.max_work = std::max(def.decl.max_work, work);
  def.decl.reach_work = std::max(reach_work_of(def.decl), work);
  def.filter = false;  // the gate reports every output's bound utilisation
  return def;
}

nlohmann::json metric(const Verdict& v, const std::string& key) {
  const auto it = v.metrics.find(key);
  return it == v.metrics.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
}

}  // namespace parity::ops
