#include <parity/ops/framework/gate_checks.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <ostream>
#include <utility>

#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops {

GateChecks::GateChecks(std::string subject, std::string shape, std::ostream* log)
    : subject_(std::move(subject)), shape_(std::move(shape)), log_(log) {}

Verdict GateChecks::run(const std::string& name, const std::function<Verdict()>& verdict) {
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

OpDef gate_def(const std::string& op, std::int64_t elements, std::int64_t work) {
  OpDef def = dynamic_cast<const OpFamily&>(find_op_family(op)).def();
  def.decl.max_elements = std::max(def.decl.max_elements, elements);
  def.decl.reach_elements = std::max(reach_elements_of(def.decl), elements);
  def.decl.max_work = std::max(def.decl.max_work, work);
  def.decl.reach_work = std::max(reach_work_of(def.decl), work);
  return def;
}

nlohmann::json metric(const Verdict& v, const std::string& key) {
  const auto it = v.metrics.find(key);
  return it == v.metrics.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
}

}  // namespace parity::ops
