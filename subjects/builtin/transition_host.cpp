#include <parity/subjects/builtin/transition_host.hpp>

#include <cmath>

namespace parity::subjects::builtin {

float cps_sin_factor(double noise_level) {
  return static_cast<float>(std::sin(noise_level * 3.14159265358979323846 / 2.0));
}

transition::Row StandardStep::row(const TransitionInputs& in, std::int64_t b) {
  const auto i = static_cast<std::size_t>(b);
  if (in.type == StepType::cps)
    return transition::cps_row(in.sigma[i], in.sigma_prev[i], cps_sin_factor(in.noise_level));
  return transition::sde_row(in.sigma[i], transition::step_dt(in.sigma[i], in.sigma_prev[i]), in.sigma_max,
                             static_cast<float>(in.noise_level), in.normaliser);
}

template class TransitionHostTwin<StandardStep>;

std::unique_ptr<TransitionSubject> make_transition_host_twin() {
  return std::make_unique<TransitionHostTwin<StandardStep>>();
}

}  // namespace parity::subjects::builtin
