#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/build_info.hpp>
#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/families/lora/lora_gate_section.hpp>
#include <parity/families/model/model_gate.hpp>
#include <parity/families/transition/transition_gate.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/lora_forward/lora_gate.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity::cli {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown cpu";
}

// parity's subject `name` of lora_backward (and lora_forward), which the lora_gate section runs.
const ops::OpSubjectInfo& subject(const std::string& name) {
  for (const auto& s : ops::find_op_family("lora_backward").infos())
    if (s.name == name) return s;
  throw std::logic_error("lora_backward has no subject " + name);
}

// The subject of parity's own LoRA kernel on `backend` (auto: CUDA when it can run here).
const ops::OpSubjectInfo& kernel_for(const std::string& backend) {
  const auto& cuda = subject("parity-cuda");
  if (backend == "host") return subject("parity-host");
  if (backend == "cuda") {
    if (const std::string why = cuda.unavailable_reason(); !why.empty()) throw InputError("--backend cuda: " + why);
    return cuda;
  }
  if (backend == "auto") return cuda.unavailable_reason().empty() ? cuda : subject("parity-host");
  throw InputError("--backend: '" + backend + "' is not auto, host or cuda");
}

// A row's figure `key` to three significant digits, "-" where it holds no number.
std::string num(const nlohmann::json& row, const char* key) {
  std::ostringstream s;
  if (row[key].is_number()) s << std::setprecision(3) << row[key].get<double>();
  else s << "-";
  return s.str();
}

// A row's check `key`: "true" where it holds, "FALSE" where it fails or was not made.
const char* yes(const nlohmann::json& row, const char* key) {
  return row[key].is_boolean() && row[key].get<bool>() ? "true" : "FALSE";
}

void print_rows(const nlohmann::json& rows) {
  std::cout << std::left << std::setw(20) << "shape" << std::setw(10) << "repeat" << std::setw(10) << "rows-ind"
            << std::setw(10) << "frozen" << std::setw(10) << "layout" << std::setw(22) << "fwd rel err (util)"
            << "grad x / A / B rel err\n";
  for (const auto& r : rows) {
    std::cout << std::setw(20) << r["shape"].get<std::string>() << std::setw(10) << yes(r, "repeatable")
              << std::setw(10) << yes(r, "forward_rows_independent") << std::setw(10) << yes(r, "base_frozen")
              << std::setw(10) << yes(r, "layout_invariant") << std::setw(22)
              << (num(r, "forward_rel_err_vs_fp64") + " (" + num(r, "forward_bound_utilisation") + ")")
              << num(r, "grad_x_rel_err_vs_fp64") << " / " << num(r, "grad_a_rel_err_vs_fp64") << " / "
              << num(r, "grad_b_rel_err_vs_fp64") << "\n";
    for (const auto& f : r["failures"]) std::cout << "    " << f.get<std::string>() << "\n";
  }
}

void print_transition_rows(const nlohmann::json& rows) {
  std::cout << std::left << std::setw(16) << "shape" << std::setw(8) << "prev" << std::setw(8) << "mean"
            << std::setw(22) << "logp rel diff formula" << std::setw(10) << "batch-inv" << std::setw(10) << "scoring"
            << std::setw(10) << "accuracy"
            << "second (mean, logp)\n";
  for (const auto& r : rows) {
    std::cout << std::setw(16) << r["shape"].get<std::string>() << std::setw(8) << yes(r, "prev_sample_bitwise")
              << std::setw(8) << yes(r, "mean_bitwise") << std::setw(22) << num(r, "logp_max_rel_diff_vs_formula")
              << std::setw(10) << yes(r, "batch_invariant") << std::setw(10)
              << yes(r, "scoring_reproduces_sampling_logprob") << std::setw(10) << yes(r, "accuracy_within_bound")
              << yes(r, "second_formulation_mean_bitwise") << ", " << num(r, "second_formulation_logp_max_rel_diff")
              << "\n";
    for (const auto& f : r["failures"]) std::cout << "    " << f.get<std::string>() << "\n";
  }
}

void print_model_rows(const nlohmann::json& rows, const nlohmann::json& checks) {
  std::cout << std::left << std::setw(8) << "tokens" << std::setw(40) << "variant" << std::setw(10) << "case"
            << "rel diff vs provider: video / audio / input grad / logp\n";
  for (const auto& r : rows) {
    std::cout << std::setw(8) << r["tokens"].get<std::int64_t>() << std::setw(40) << r["variant"].get<std::string>()
              << std::setw(10) << r["case_id"].get<std::string>() << num(r, "video_rel_diff_vs_provider") << " / "
              << num(r, "audio_rel_diff_vs_provider") << " / " << num(r, "input_grad_rel_diff_vs_provider") << " / "
              << num(r, "logp_rel_diff_vs_provider") << "\n";
  }
  for (const auto& [tokens, c] : checks.items()) {
    std::cout << "  tokens " << tokens << ":";
    for (const char* k :
         {"strict_bitwise_repeatable", "audit_equals_strict", "off_equals_provider", "strict_within_tolerance_vs_fp64"})
      std::cout << " " << k << "=" << yes(c, k);
    std::cout << "\n";
  }
}

}  // namespace

int cmd_gate(const Args& args) {
  if (!args.positional().empty()) throw InputError("gate takes no positional argument");
  const char* env_backend = std::getenv("PARITY_BACKEND");
  const std::string backend = args.get("--backend").value_or(env_backend && *env_backend ? env_backend : "auto");
  const auto& kernel = kernel_for(backend);
  const std::string out = args.get("--out").value_or("reports/gate.json");
  check_output_path(out, "--out");
  const bool quick = args.has("--quick");
  // The reference figures (docs/reference/figures.json) are read and checked before any work.
  ops::lora_forward::gate_shapes(quick);
  transition::gate_shapes(quick);
  properties::model::gate_token_counts(quick);

  // Progress, a line per finished check of a row, on a terminal only: nothing when piped.
  std::ostream* progress = ::isatty(2) ? &std::cerr : nullptr;
  if (progress) *progress << "parity gate: lora on " << kernel.name << (quick ? " (quick)" : "") << "\n";
  const auto section = properties::lora::run_lora_gate(kernel.name, quick, progress);
  if (progress) *progress << "parity gate: transition on " << kernel.name << "\n";
  const auto transition = transition::run_transition_gate(kernel.name, quick, progress);
  const std::string model_subject = kernel.backend == "cuda" ? "runtime-cuda" : "runtime-host";
  if (progress) *progress << "parity gate: model on " << model_subject << "\n";
  const auto model =
      properties::model::run_model_gate(model_subject, quick, args.has("--bind-video-projections"), progress);

  nlohmann::json report;
  report["schema"] = "parity.gate/2";
  report["backend"] = kernel.backend;
  report["environment"] = environment_json();
  report["device"] = kernel.backend == "cuda" ? report["environment"]["device"].get<std::string>() : cpu_model();
  report["torch"] = subjects::torch_impl::torch_version_text();
  report["figures"] = properties::gate_figures().path;
  report["runtime_modes"] = properties::model::runtime_modes_section();
  report["lora_gate"] = section.rows;
  report["transition"] = transition.rows;
  report["model"] = model.rows;
  report["model_checks"] = model.checks;
  // LibTorch is a reference nobody here wrote: its results are findings, not gate failures.
  nlohmann::json findings = nlohmann::json::object();
  for (const char* name : {"torch-cpu", "torch-cuda"}) {
    if (const std::string why = subject(name).unavailable_reason(); !why.empty()) {
      findings[name] = {{"skipped", why}};
      continue;
    }
    if (progress) *progress << "parity gate: findings for " << name << "\n";
    findings[name]["lora_gate"] = properties::lora::run_lora_gate(name, quick, progress).rows;
    findings[name]["transition"] = transition::run_transition_gate(name, quick, progress).rows;
  }
  report["findings"] = findings;
  const bool all_hold = section.all_hold && transition.all_hold && model.all_hold;
  report["all_hold"] = all_hold;
  write_json_atomically(report, out);

  std::cout << "lora_gate on " << kernel.name << " (" << report["device"].get<std::string>() << ")\n";
  print_rows(section.rows);
  std::cout << "\ntransition on " << kernel.name << "\n";
  print_transition_rows(transition.rows);
  std::cout << "\nmodel on " << model_subject << " (relative differences are normwise, ||a - b|| / ||b||)\n";
  print_model_rows(model.rows, model.checks);
  for (const auto& [name, f] : findings.items()) {
    if (!f.contains("lora_gate")) {
      std::cout << "\nfindings, " << name << ": skipped (" << f["skipped"].get<std::string>() << ")\n";
      continue;
    }
    std::cout << "\nfindings, " << name << " (LibTorch " << report["torch"].get<std::string>()
              << "; reported, not gated)\n";
    print_rows(f["lora_gate"]);
    print_transition_rows(f["transition"]);
  }
  std::cout << "\nreport: " << out << "\ngate: " << (all_hold ? "every check holds" : "SOME CHECKS FAIL") << "\n";
  return all_hold ? 0 : 1;
}

}  // namespace parity::cli
