#include <parity/properties/transition/transition_properties.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::transition {

const std::vector<TransitionProperty>& transition_properties() {
  static const std::vector<TransitionProperty> all = {
      {"matches_formula", "prev_sample, mean and std bitwise equal to the formula rounded once per operation", true,
       &check_matches_formula},
      {"logp_vs_formula", "log-prob within the derived bound of the formula's", true, &check_logp_vs_formula},
      {"batch_invariant",
       "a row's outputs are the same bits alone and inside the batch",
       true,
       &check_batch_invariant,
       {.scoring = true}},
      {"batch_vs_batch",
       "a row's outputs are the same bits in batches of two sizes above one",
       true,
       &check_batch_vs_batch,
       {.scoring = true}},
      {"scoring_reproduces_sampling",
       "scoring a sampled prev_sample gives the sampling log-prob bitwise",
       true,
       &check_scoring_reproduces_sampling,
       {.scoring = true}},
      {"accuracy", "std, mean, prev and log-prob within their running-error bounds of the exact step", true,
       &check_accuracy},
      {"second_formulation_agrees", "a second formulation's mean is bitwise equal, its log-prob within bound", true,
       &check_second_formulation_agrees},
      {"oracle_agreement", "the float64 oracle agrees with the 133-bit one", false, &check_oracle_agreement},
  };
  return all;
}

const TransitionProperty& find_transition_property(const std::string& name) {
  return find_named(transition_properties(), name, "transition property");
}

}  // namespace parity::properties::transition
