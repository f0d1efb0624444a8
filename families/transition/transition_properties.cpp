#include <parity/families/transition/transition_properties.hpp>

#include <map>
#include <utility>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::transition {

const std::vector<TransitionProperty>& transition_properties() {
  static const std::vector<TransitionProperty> all = {
      {"matches_formula", "prev_sample, mean and std bitwise equal to the formula rounded once per operation", false,
       &check_matches_formula},
      {"logp_vs_formula", "log-prob within the derived bound of the formula's", false, &check_logp_vs_formula},
      {"scoring_reproduces_sampling", "scoring a sampled prev_sample gives the sampling log-prob bitwise", true,
       &check_scoring_reproduces_sampling},
      {"second_formulation_agrees", "a second formulation's mean is bitwise equal, its log-prob within bound", false,
       &check_second_formulation_agrees},
  };
  return all;
}

void refuse_moved_property(const std::string& name) {
  // The op property that replaces each, and the flags its check needs beyond --property.
  static const std::map<std::string, std::pair<std::string, std::string>> moved = {
      {"batch_invariant", {"rows_independent", ""}},
      {"batch_vs_batch", {"batch_vs_batch", ""}},
      {"accuracy", {"forward_accuracy", ""}},
      {"oracle_agreement", {"oracle_agreement", " --subject parity-oracles"}},
      {"cross_backend_bitwise", {"cross_backend_bitwise", " --subject parity-cuda"}}};
  if (const auto it = moved.find(name); it != moved.end()) {
    const auto& [property, flags] = it->second;
    throw InputError("transition property '" + name + "' is now the ops': transition_step's and transition_score's " +
                     property + " (parity check transition_step --property " + property + flags +
                     ", and likewise transition_score); the transition family neither checks it nor replays a "
                     "Case of it");
  }
}

const TransitionProperty& find_transition_property(const std::string& name) {
  refuse_moved_property(name);
  return find_named(transition_properties(), name, "transition property");
}

}  // namespace parity::transition
