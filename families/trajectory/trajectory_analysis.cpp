#include <parity/families/trajectory/trajectory_analysis.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>

namespace parity::properties::trajectory {
namespace {

using nlohmann::json;

double max_abs_diff(const Tensor& a, const Tensor& b) { return compare_values(a, b).max_abs; }

double normwise(const Tensor& a, const Tensor& b) { return compare_values(a, b).normwise_rel; }

bool bitwise(const Tensor& a, const Tensor& b) { return compare_bitwise(a, b).equal(); }

std::string hex16(double v) {
  const std::uint16_t bits = bf16_from_float_rne(static_cast<float>(v));
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(bits));
  return buf;
}

// The row-major multi-index of flat index k in `shape`.
json multi_index(std::int64_t k, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> idx(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
  return idx;
}

// Elements where two bf16-cast inputs differ.
json flips(const char* operand, const Tensor& single, const Tensor& batched) {
  json out = json::array();
  for (std::int64_t k = 0; k < single.numel(); ++k)
    if (single.bits_at(k) != batched.bits_at(k))
      out.push_back({{"operand", operand},
                     {"index", multi_index(k, single.shape())},
                     {"flat_index", k},
                     {"single_bf16", hex16(single.value_at(k))},
                     {"batched_bf16", hex16(batched.value_at(k))},
                     {"single_value", single.value_at(k)},
                     {"batched_value", batched.value_at(k)}});
  return out;
}

struct ArmResult {
  double video_gap = 0, audio_gap = 0;
  std::vector<double> per_block;
};

ArmResult compare_calls(const ArmCall& a, const ArmCall& b) {
  ArmResult r{max_abs_diff(a.video, b.video), max_abs_diff(a.audio, b.audio), {}};
  for (std::size_t k = 0; k < a.blocks.size(); ++k) r.per_block.push_back(normwise(a.blocks[k], b.blocks[k]));
  return r;
}

json arm_json(const std::string& description, const ArmResult& r) {
  return {{"description", description},
          {"video_max_abs_diff", r.video_gap},
          {"audio_max_abs_diff", r.audio_gap},
          {"per_block_rel_diff", r.per_block}};
}

// The step whose analysis explains the gap for sample i: its first step with a flipped input,
// else its first step with unequal velocities, else -1.
int focus_step(const TrajectoryRuns& runs, std::size_t i, bool* has_flip) {
  const auto& s = runs.single[i];
  const auto& b = runs.batched[i];
  for (std::size_t k = 0; k < s.size(); ++k)
    if (!bitwise(s[k].video_input, b[k].video_input) || !bitwise(s[k].audio_input, b[k].audio_input)) {
      *has_flip = true;
      return static_cast<int>(k);
    }
  *has_flip = false;
  for (std::size_t k = 0; k < s.size(); ++k)
    if (!bitwise(s[k].video_velocity, b[k].video_velocity) || !bitwise(s[k].audio_velocity, b[k].audio_velocity))
      return static_cast<int>(k);
  return -1;
}

json divergence_json(const TrajectoryProblem& p, const TrajectorySubject& subject, const TrajectoryRuns& runs,
                     std::size_t i, int step, const ConclusionThresholds& t) {
  const StepRecord& s = runs.single[i][step];
  const StepRecord& b = runs.batched[i][step];
  json flipped = flips("video", s.video_input, b.video_input);
  for (auto& f : flips("audio", s.audio_input, b.audio_input)) flipped.push_back(f);

  // Arm P: the single input with only the flipped elements set to the batched values.
  Tensor pv = s.video_input, pa = s.audio_input;
  for (const auto& f : flipped) {
    Tensor& target = f["operand"] == "video" ? pv : pa;
    const Tensor& from = f["operand"] == "video" ? b.video_input : b.audio_input;
    const std::int64_t k = f["flat_index"].get<std::int64_t>();
    target.set_bits(k, from.bits_at(k));
  }
  const ArmCall single_own = call_model(p, subject, runs, false, i, step, s.video_input, s.audio_input);
  const ArmCall batched_own = call_model(p, subject, runs, true, i, step, b.video_input, b.audio_input);
  const ArmResult A = compare_calls(single_own, batched_own);
  const ArmResult B =
      compare_calls(single_own, call_model(p, subject, runs, true, i, step, s.video_input, s.audio_input));
  const ArmResult C =
      compare_calls(call_model(p, subject, runs, false, i, step, b.video_input, b.audio_input), batched_own);
  const ArmResult P = compare_calls(single_own, call_model(p, subject, runs, false, i, step, pv, pa));

  json growth = json::array();
  for (const auto& [name, arm] : {std::pair{"A", &A}, std::pair{"P", &P}})
    for (std::size_t k = 1; k < arm->per_block.size(); ++k)
      if (arm->per_block[k - 1] > 0)
        growth.push_back({{"arm", name}, {"block", k}, {"factor", arm->per_block[k] / arm->per_block[k - 1]}});
  std::sort(growth.begin(), growth.end(), [](const json& x, const json& y) { return x["factor"] > y["factor"]; });
  if (growth.size() > 4) growth.erase(growth.begin() + 4, growth.end());

  // Each arm's gap: the larger of its video and audio gaps.
  auto gap = [](const ArmResult& r) { return std::max(r.video_gap, r.audio_gap); };
  const double gap_a = gap(A), gap_p = gap(P), layouts = std::max(gap(B), gap(C));
  std::string conclusion, text;
  std::ostringstream m;
  if (gap_a == 0.0) {
    conclusion = "no_gap";
    m << "Replaying each layout's recorded input gives bitwise equal velocities (arm A): the gap recorded at this "
         "step does not reproduce.";
  } else if (!flipped.empty() && std::fabs(gap_p - gap_a) <= t.p_matches_a * gap_a &&
             layouts <= t.layout_small * gap_a) {
    conclusion = "flipped_elements";
    m << "The whole gap comes from the " << flipped.size()
      << " flipped bf16 element(s) at the step's input: perturbing only "
      << "them reproduces it (P " << gap_p << " vs A " << gap_a << "), while the layouts fed the same input differ by "
      << layouts << ".";
  } else if ((flipped.empty() || gap_p <= t.layout_small * gap_a) && layouts >= t.layout_large * gap_a) {
    conclusion = "layouts";
    m << "The gap comes from the layouts themselves: fed the same input they differ by " << layouts << " (A " << gap_a
      << "), and the " << flipped.size() << " flipped element(s) account for " << gap_p << ".";
  } else {
    conclusion = "both";
    m << "Flipped elements and layouts both contribute: A " << gap_a << ", P (flips only) " << gap_p
      << ", B/C (layouts only) " << gap(B) << " / " << gap(C) << ".";
  }
  text = m.str();
  return {{"seed", p.seeds[i]},
          {"step", step},
          {"latent_elements", s.video_entry.numel()},
          {"audio_latent_elements", s.audio_entry.numel()},
          {"latent_max_abs_diff_at_entry", max_abs_diff(s.video_entry, b.video_entry)},
          {"audio_latent_max_abs_diff_at_entry", max_abs_diff(s.audio_entry, b.audio_entry)},
          {"flipped_count", flipped.size()},
          {"flipped_elements", flipped},
          {"blocks", p.config.blocks},
          {"arms",
           {{"A", arm_json("each layout replays its own recorded input", A)},
            {"B", arm_json("both layouts fed the single layout's input", B)},
            {"C", arm_json("both layouts fed the batched layout's input", C)},
            {"P", arm_json("single layout, only the flipped elements set to the batched values", P)}}},
          {"growth", growth},
          {"conclusion", conclusion},
          {"conclusion_text", text},
          {"thresholds",
           {{"p_matches_a", t.p_matches_a}, {"layout_small", t.layout_small}, {"layout_large", t.layout_large}}}};
}

}  // namespace

bool single_equals_batched(const TrajectoryProblem& p, const TrajectoryRuns& runs, std::string* where) {
  for (std::size_t i = 0; i < runs.single.size(); ++i)
    for (std::size_t k = 0; k < runs.single[i].size(); ++k) {
      const StepRecord& s = runs.single[i][k];
      const StepRecord& b = runs.batched[i][k];
      if (bitwise(s.video_velocity, b.video_velocity) && bitwise(s.audio_velocity, b.audio_velocity)) continue;
      if (where) {
        std::ostringstream m;
        m << "seed " << p.seeds[i] << " step " << k << ": video velocity differs by "
          << max_abs_diff(s.video_velocity, b.video_velocity) << ", audio by "
          << max_abs_diff(s.audio_velocity, b.audio_velocity) << " ("
          << flips("video", s.video_input, b.video_input).size() + flips("audio", s.audio_input, b.audio_input).size()
          << " bf16 flips at the step's entry)";
        *where = m.str();
      }
      return false;
    }
  return true;
}

bool bf16_inputs_equal(const TrajectoryProblem& p, const TrajectoryRuns& runs, std::string* where) {
  for (std::size_t i = 0; i < runs.single.size(); ++i)
    for (std::size_t k = 0; k < runs.single[i].size(); ++k) {
      const StepRecord& s = runs.single[i][k];
      const StepRecord& b = runs.batched[i][k];
      json f = flips("video", s.video_input, b.video_input);
      for (auto& a : flips("audio", s.audio_input, b.audio_input)) f.push_back(a);
      if (f.empty()) continue;
      if (where) {
        std::ostringstream m;
        m << "seed " << p.seeds[i] << " step " << k << ": " << f.size() << " bf16 element(s) flipped at the entry (";
        for (std::size_t e = 0; e < f.size() && e < 3; ++e)
          m << (e ? ", " : "") << f[e]["operand"].get<std::string>() << f[e]["index"].dump() << " "
            << f[e]["single_bf16"].get<std::string>() << " vs " << f[e]["batched_bf16"].get<std::string>();
        m << (f.size() > 3 ? ", ..." : "") << "), video velocity gap "
          << max_abs_diff(s.video_velocity, b.video_velocity);
        *where = m.str();
      }
      return false;
    }
  return true;
}

json analyse_trajectories(const TrajectoryProblem& p, const TrajectorySubject& subject, const TrajectoryRuns& runs,
                          const ConclusionThresholds& t) {
  json report = {{"schema", "parity.trajectory/1"},
                 {"subject", subject.name},
                 {"bindings", subject.description},
                 {"mode", subject.name == "provider" ? "off (no runtime)" : std::string(runtime::mode_name(p.mode))},
                 {"seeds", p.seeds},
                 {"steps", p.steps},
                 {"tokens", p.split.total()},
                 {"token_split", {{"video", p.split.video}, {"text", p.split.text}, {"audio", p.split.audio}}},
                 {"blocks", p.config.blocks},
                 {"batch", p.seeds.size()},
                 {"straddles_requested", p.straddles},
                 {"straddles_placed", runs.straddles_placed}};
  json samples = json::array();
  int best = -1, best_step = -1;
  double best_gap = -1;
  bool best_has_flip = false;
  for (std::size_t i = 0; i < runs.single.size(); ++i) {
    json steps = json::array();
    for (std::size_t k = 0; k < runs.single[i].size(); ++k) {
      const StepRecord& s = runs.single[i][k];
      const StepRecord& b = runs.batched[i][k];
      steps.push_back({{"step", k},
                       {"sigma", runs.sigmas[k]},
                       {"video_velocity_max_abs_diff", max_abs_diff(s.video_velocity, b.video_velocity)},
                       {"audio_velocity_max_abs_diff", max_abs_diff(s.audio_velocity, b.audio_velocity)},
                       {"entry_bf16_flips", flips("video", s.video_input, b.video_input).size() +
                                                flips("audio", s.audio_input, b.audio_input).size()},
                       {"bitwise_equal",
                        bitwise(s.video_velocity, b.video_velocity) && bitwise(s.audio_velocity, b.audio_velocity)}});
    }
    bool has_flip = false;
    const int focus = focus_step(runs, i, &has_flip);
    samples.push_back({{"seed", p.seeds[i]},
                       {"first_diverging_step", has_flip ? json(focus) : json(nullptr)},
                       {"first_unequal_step", focus >= 0 && !has_flip ? json(focus) : json(nullptr)},
                       {"steps", steps}});
    if (focus < 0) continue;
    const double gap = max_abs_diff(runs.single[i][focus].video_velocity, runs.batched[i][focus].video_velocity);
    // Prefer a sample with a flip; among those, the largest gap at the focus step.
    if (best < 0 || (has_flip && !best_has_flip) || (has_flip == best_has_flip && gap > best_gap)) {
      best = static_cast<int>(i);
      best_step = focus;
      best_gap = gap;
      best_has_flip = has_flip;
    }
  }
  report["samples"] = samples;
  report["all_steps_bitwise_equal"] = single_equals_batched(p, runs, nullptr);
  report["divergence"] =
      best < 0 ? json(nullptr) : divergence_json(p, subject, runs, static_cast<std::size_t>(best), best_step, t);
  return report;
}

}  // namespace parity::properties::trajectory
