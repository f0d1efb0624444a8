#pragma once
// One model property on a subject, as the kernel-binding tests run it: 25 cases from a fixed
// seed, no shrinking, no reproducer.
#include <string>

#include <parity/families/model/model_runs.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity {

inline gen::RunResult run_model_property(const std::string& subject, const std::string& property) {
  gen::RunConfig config;
  config.cases = 25;
  config.seed = 7;
  config.shrink = false;
  config.write_reproducer = false;
  return gen::model_family().run(subject, property, config);
}

}  // namespace parity
