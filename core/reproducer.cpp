#include <parity/core/reproducer.hpp>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include <parity/core/build_info.hpp>
#include <parity/core/error.hpp>
#include <parity/core/input_file.hpp>
#include <parity/core/json_read.hpp>
#include <parity/core/stable_hash.hpp>

namespace parity {

using nlohmann::json;
namespace jr = json_read;

json reproducer_to_json(const Reproducer& r) {
  return {{"schema", kReproSchema},
          {"subject", r.subject},
          {"property", r.property},
          {"case", case_to_json(r.failing_case)},
          {"observed", verdict_to_json(r.observed)},
          {"environment", environment_json()}};
}

Reproducer reproducer_from_json(const json& j) {
  const std::string schema = jr::as_string(jr::member(j, "", "schema"), "schema");
  if (schema != kReproSchema)
    throw InputError("schema: '" + schema + "' is not one this parity reads (it reads " + kReproSchema + ")");
  Reproducer r;
  r.subject = current_subject_name(jr::as_string(jr::member(j, "", "subject"), "subject"));
  r.property = jr::as_string(jr::member(j, "", "property"), "property");
  r.failing_case = case_from_json(jr::member(j, "", "case"), "case");
  r.observed = verdict_from_json(jr::member(j, "", "observed"), "observed");
  return r;
}

std::string current_subject_name(const std::string& name) {
  const auto renamed = [](const std::string& kernel) -> std::string {
    if (kernel == "rlkernels-host") return "parity-host";
    if (kernel == "rlkernels-cuda") return "parity-cuda";
    return kernel;
  };
  const std::size_t kernel_at = name.rfind('=');  // a model or trajectory subject: "...+OP=KERNEL"
  if (kernel_at == std::string::npos) return renamed(name);
  return name.substr(0, kernel_at + 1) + renamed(name.substr(kernel_at + 1));
}

std::string reproducer_file_name(const Reproducer& r) {
  return r.failing_case.family + '-' + r.property + '-' + r.subject + '-' +
         hex16(fnv1a_64(case_to_json(r.failing_case).dump())) + ".json";
}

std::filesystem::path write_reproducer(const Reproducer& r, const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / reproducer_file_name(r);
  write_json_atomically(reproducer_to_json(r), path);
  return path;
}

Reproducer read_reproducer(const std::filesystem::path& path) {
  const std::string bytes = read_input_file(path);
  const std::string name = path.string();
  json j;
  try {
    j = json::parse(bytes);
  } catch (const json::parse_error& e) {
    throw InputError(name + ": not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const json::out_of_range& e) {  // a number beyond double, e.g. 1e400 (found by repro_parser_fuzzer)
    throw InputError(name + ": not valid JSON (" + e.what() + ")");
  }
  try {
    return reproducer_from_json(j);
  } catch (const InputError& e) {
    throw InputError(name + ": " + e.what());
  }
}

std::filesystem::path default_repro_dir() {
  const char* env = std::getenv("PARITY_REPRO_DIR");
  return env && *env ? std::filesystem::path(env) : std::filesystem::path("reports/repros");
}

}  // namespace parity
