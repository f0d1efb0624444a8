#pragma once
// The runtime: binds each boundary call to a routine or to the provider according to the mode,
// the ablations and the opt-in groups, and logs every decision (BindingLog).
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/subjects/runtime/binding_log.hpp>
#include <parity/subjects/runtime/mode.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::runtime {

// strict mode met a fallback. The message names the boundary, the routine and the reason.
class BindingError : public std::runtime_error {
 public:
  explicit BindingError(const std::string& message) : std::runtime_error(message) {}
};

// One boundary or node left to the provider in a bound mode: "node:attention" (every node of
// that kind) or "boundary:token_refiner" (one boundary or node by its full name).
struct Ablation {
  enum class Scope { node_kind, boundary };
  Scope scope = Scope::boundary;
  std::string name;
  std::string text() const;  // "node:attention"
  bool matches(const BoundaryCall& call) const;
};
// Parses "node:<kind>" or "boundary:<name>"; InputError otherwise.
Ablation parse_ablation(const std::string& text);

struct RuntimeOptions {
  Mode mode = Mode::strict;
  Backend backend = Backend::host;
  std::vector<Ablation> ablations;
  bool bind_video_projections = false;  // bind the routines of OptIn::video_projections
  bool bind_all = false;                // bind every opt-in routine
};

class Runtime {
 public:
  Runtime(const RoutineRegistry& routines, RuntimeOptions options);
  virtual ~Runtime() = default;

  // The routine to run for `call`, or nullptr for the provider; records the decision. Throws
  // BindingError in strict mode when the boundary's routine cannot take the call.
  virtual const Routine* bind(const BoundaryCall& call);

  const BindingLog& log() const { return log_; }
  const RuntimeOptions& options() const { return options_; }
  // "R/R" when a routine ran, "P/P" when none did, "ablation" when ablations were asked for.
  std::string case_id() const;

 protected:
  struct Decision {
    const RoutineInfo* routine = nullptr;  // the routine to run, or nullptr
    Binding binding;                       // what to log
  };
  // The decision the mode's semantics give, without logging or raising.
  Decision decide(const BoundaryCall& call);
  // The one instance of `routine` on this runtime's backend.
  const Routine* instance(const RoutineInfo& routine);
  void record(const BoundaryCall& call, const Binding& binding) { log_.record(call.boundary, binding); }
  [[noreturn]] void raise_fallback(const BoundaryCall& call, const Binding& binding) const;

 private:
  bool requested(const RoutineInfo& routine) const;
  // Whether `routine` passes its self-check on this backend (cached); `why` gets the failure.
  bool self_check(const RoutineInfo& routine, std::string* why);

  const RoutineRegistry& routines_;
  RuntimeOptions options_;
  BindingLog log_;
  std::map<std::string, std::unique_ptr<Routine>> instances_;
  std::map<std::string, std::string> self_check_failures_;  // routine -> why ("" = passed)
};

}  // namespace parity::runtime
