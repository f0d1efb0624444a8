// parity trajectory: single vs batched sampling of the model, its divergence analysis, a shrunk
// reproducer of any divergence, and the JSON and HTML reports.
#include <iostream>

#include <nlohmann/json.hpp>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/families/trajectory/trajectory_analysis.hpp>
#include <parity/families/trajectory/trajectory_family.hpp>
#include <parity/families/trajectory/trajectory_properties.hpp>
#include <parity/properties/gen/case_shrink.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/report/trajectory_html.hpp>
#include <parity/subjects/runtime/mode.hpp>

namespace parity::cli {
namespace {

namespace pt = properties::trajectory;

std::string subject_from(const Args& args) {
  const int chosen = args.has("--subject") + args.has("--bind-video-projections") + args.has("--bind-all");
  if (chosen > 1) throw InputError("--subject, --bind-video-projections and --bind-all exclude each other");
  if (args.has("--bind-all")) return "bound-all";
  if (args.has("--bind-video-projections")) return "bound-video-projections";
  return args.get("--subject").value_or("strict");
}

// Shrinks `c` while `property` still fails on `subject`; writes the reproducer.
nlohmann::json shrink_and_record(const Case& c, const pt::TrajectorySubject& subject,
                                 const pt::TrajectoryProperty& property, int max_checks,
                                 const std::filesystem::path& repro_dir) {
  const auto verdict = [&](const Case& candidate) {
    return gen::guarded_verdict(property.name, candidate, gen::trajectory_family().rules().check_contract,
                                [&](const Case& d) { return property.check(d, subject); });
  };
  const FailureKind kind = verdict(c).kind;  // a shrink keeps the failure's kind
  auto fails = [&](const Case& candidate) { return gen::reproduces(verdict(candidate), kind); };
  // Issue 5's priorities: fewest steps, then blocks, then tokens, then straddling elements.
  const auto shrunk = gen::shrink_case(
      c, fails, {.max_evaluations = max_checks, .dims_first = {"steps", "blocks", "tokens", "straddles"}});
  const Verdict v = verdict(shrunk.shrunk);
  const auto path = write_reproducer({subject.name, property.name, shrunk.shrunk, v}, repro_dir);
  return {{"property", property.name},       {"path", path.string()},
          {"case", shrunk.shrunk.summary()}, {"observed", v.detail},
          {"shrink_steps", shrunk.steps},    {"checks", shrunk.evaluations},
          {"exhausted", shrunk.exhausted},   {"replay", "parity replay " + path.string()}};
}

}  // namespace

int cmd_trajectory(const Args& args) {
  if (!args.positional().empty()) throw InputError("trajectory takes no positional argument");
  const std::vector<std::uint64_t> seeds = args.number_list("--seeds", {11, 22, 33}, (std::uint64_t{1} << 53) - 1);
  const auto& subject = pt::find_trajectory_subject(subject_from(args));
  for (const char* flag : {"--json", "--html"})
    if (const auto path = args.get(flag)) check_output_path(*path, flag);
  const int max_checks = static_cast<int>(args.number("--max-checks", 400, 1, kMaxCount));
  // trajectory has no --repro-dir: its reproducer goes to $PARITY_REPRO_DIR (default reports/repros).
  const std::filesystem::path repro_dir = default_repro_dir();
  if (!args.has("--no-shrink")) check_output_directory(repro_dir, "PARITY_REPRO_DIR (default reports/repros)");
  auto bounded = [&args](const char* flag, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) {
    return static_cast<int>(args.number(flag, fallback, min, max));
  };
  const Case c =
      pt::trajectory_case(seeds, bounded("--steps", 4, 1, 64), bounded("--tokens", 32, 3, 1 << 20),
                          bounded("--blocks", 2, 0, 64), bounded("--straddles", 8, 0, 4096), 20261129,
                          std::string(runtime::mode_name(runtime::parse_mode(args.get("--mode").value_or("strict")))));
  const auto problem = pt::TrajectoryProblem::from(c);
  std::cerr << "parity trajectory: " << c.summary() << " on " << subject.name << "\n";
  const auto runs = pt::run_trajectories(problem, subject);
  nlohmann::json report = pt::analyse_trajectories(problem, subject, runs);
  report["case"] = case_to_json(c);

  const bool equal = report["all_steps_bitwise_equal"].get<bool>();
  if (!equal && !args.has("--no-shrink")) {
    // A flipped bf16 input is the divergence to explain; without one, the layouts' own gap.
    const bool flipped = !pt::bf16_inputs_equal(problem, runs, nullptr);
    const auto& property = pt::find_trajectory_property(flipped ? pt::kNoBf16Flip : pt::kSingleEqualsBatched);
    std::cerr << "parity trajectory: shrinking the " << property.name << " failure\n";
    report["shrunk"] = shrink_and_record(c, subject, property, max_checks, repro_dir);
    report["reproducer"] = report["shrunk"]["path"];
  }
  if (const auto path = args.get("--json")) write_json_atomically(report, *path);
  if (const auto path = args.get("--html"))
    write_text_atomically(report::render_trajectory_html(report, std::filesystem::path(*path).parent_path()), *path);

  std::cout << "trajectory on " << subject.name << " (" << subject.description << "), seeds";
  for (auto s : seeds) std::cout << " " << s;
  std::cout << ", " << problem.steps << " steps, " << problem.split.total() << " tokens\n";
  for (const auto& s : report["samples"]) {
    std::cout << "  seed " << s["seed"] << ": ";
    if (!s["first_diverging_step"].is_null())
      std::cout << "diverges at step " << s["first_diverging_step"] << " (bf16 input flipped)\n";
    else if (!s["first_unequal_step"].is_null())
      std::cout << "velocities unequal from step " << s["first_unequal_step"] << " (no bf16 flip)\n";
    else std::cout << "bitwise equal at every step\n";
  }
  if (const auto& d = report["divergence"]; !d.is_null()) {
    std::cout << "  seed " << d["seed"] << " step " << d["step"] << ": latents differ by "
              << d["latent_max_abs_diff_at_entry"].get<double>() << " at entry, " << d["flipped_count"]
              << " element(s) flipped by the bf16 cast\n";
    for (const auto& f : d["flipped_elements"])
      std::cout << "    " << f["operand"].get<std::string>() << f["index"].dump() << ": "
                << f["single_bf16"].get<std::string>() << " (single) vs " << f["batched_bf16"].get<std::string>()
                << " (batched)\n";
    for (const char* arm : {"A", "B", "C", "P"})
      std::cout << "    arm " << arm << ": video gap " << d["arms"][arm]["video_max_abs_diff"].get<double>()
                << ", audio gap " << d["arms"][arm]["audio_max_abs_diff"].get<double>() << "\n";
    std::cout << "  conclusion: " << d["conclusion"].get<std::string>() << ": "
              << d["conclusion_text"].get<std::string>() << "\n";
  }
  if (report.contains("shrunk"))
    std::cout << "  shrunk: " << report["shrunk"]["case"].get<std::string>() << "\n  "
              << report["shrunk"]["observed"].get<std::string>()
              << "\n  reproducer: " << report["shrunk"]["path"].get<std::string>()
              << "\n  replay:     " << report["shrunk"]["replay"].get<std::string>() << "\n";
  if (const auto path = args.get("--json")) std::cout << "json: " << *path << "\n";
  if (const auto path = args.get("--html")) std::cout << "html: " << *path << "\n";
  std::cout << (equal ? "every step bitwise equal for every seed\n" : "single and batched DIFFER\n");
  return equal ? 0 : 1;
}

}  // namespace parity::cli
