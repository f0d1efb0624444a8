#include <parity/subjects/runtime/runtime.hpp>

#include <parity/core/error.hpp>

namespace parity::runtime {

std::string Ablation::text() const { return (scope == Scope::node_kind ? "node:" : "boundary:") + name; }

bool Ablation::matches(const BoundaryCall& call) const {
  return scope == Scope::node_kind ? (call.node && call.kind == name) : call.boundary == name;
}

Ablation parse_ablation(const std::string& text) {
  for (auto [prefix, scope] : {std::pair{std::string("node:"), Ablation::Scope::node_kind},
                               std::pair{std::string("boundary:"), Ablation::Scope::boundary}})
    if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size()) return {scope, text.substr(prefix.size())};
  throw InputError("ablation '" + text + "': expected node:<kind> or boundary:<name>");
}

Runtime::Runtime(const RoutineRegistry& routines, RuntimeOptions options)
    : routines_(routines), options_(std::move(options)) {}

bool Runtime::requested(const RoutineInfo& routine) const {
  switch (routine.opt_in) {
    case OptIn::none:
      return true;
    case OptIn::video_projections:
      return options_.bind_video_projections || options_.bind_all;
    case OptIn::all:
      return options_.bind_all;
  }
  return false;
}

bool Runtime::self_check(const RoutineInfo& routine, std::string* why) {
  auto it = self_check_failures_.find(routine.name);
  if (it == self_check_failures_.end())
    it = self_check_failures_.emplace(routine.name, routine.self_check ? routine.self_check(options_.backend) : "")
             .first;
  *why = it->second;
  return why->empty();
}

Runtime::Decision Runtime::decide(const BoundaryCall& call) {
  const ModeSemantics mode = semantics(options_.mode);
  const RoutineInfo* routine = routines_.for_kind(call.kind);
  if (!routine) return {nullptr, {"", BindingStatus::provider, "no routine serves '" + call.kind + "'", 0}};
  if (!mode.bind)
    return {nullptr, {routine->name, BindingStatus::provider, "mode " + std::string(mode_name(options_.mode)), 0}};
  if (!requested(*routine))
    return {nullptr,
            {"", BindingStatus::provider,
             "routine '" + routine->name + "' binds only when asked (" +
                 (routine->opt_in == OptIn::video_projections ? "--bind-video-projections" : "--bind-all") + ")",
             0}};
  for (const auto& a : options_.ablations)
    if (a.matches(call)) return {nullptr, {routine->name, BindingStatus::provider, "ablation " + a.text(), 0}};
  if (mode.self_check) {
    std::string why;
    if (!self_check(*routine, &why))
      return {nullptr, {routine->name, BindingStatus::provider, "self-check failed: " + why, 0}};
  }
  if (call.needs_backward && !routine->has_backward)
    return {nullptr,
            {routine->name, BindingStatus::fallback,
             "the routine has no backward and a gradient flows through this call", 0}};
  if (std::string why = routine->cannot_take(call, options_.backend); !why.empty())
    return {nullptr, {routine->name, BindingStatus::fallback, why, 0}};
  return {routine, {routine->name, BindingStatus::routine, "bound on " + backend_name(options_.backend), 0}};
}

const Routine* Runtime::instance(const RoutineInfo& routine) {
  auto& slot = instances_[routine.name];
  if (!slot) slot = routine.make(options_.backend);
  return slot.get();
}

void Runtime::raise_fallback(const BoundaryCall& call, const Binding& binding) const {
  throw BindingError("strict mode: boundary '" + call.boundary + "' fell back to the provider: routine '" +
                     binding.routine + "' cannot take this call: " + binding.reason);
}

const Routine* Runtime::bind(const BoundaryCall& call) {
  Decision d = decide(call);
  record(call, d.binding);
  if (d.binding.status == BindingStatus::fallback && semantics(options_.mode).fail_on_fallback)
    raise_fallback(call, d.binding);
  return d.routine ? instance(*d.routine) : nullptr;
}

std::string Runtime::case_id() const {
  if (!options_.ablations.empty() && semantics(options_.mode).bind) return "ablation";
  return log_.any_routine() ? "R/R" : "P/P";
}

}  // namespace parity::runtime
