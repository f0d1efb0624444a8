// Every `parity` subcommand: its arguments, flags, environment and help (cli/command_spec.hpp).
// To add a flag, add it to its command's `flags` here and read it with Args in the command's
// cmd_*.cpp; to add a command, add an entry here and its cmd_*.cpp (cli/commands.hpp). Help
// text is wrapped by the parser; docs/command.md's command synopsis must name every flag
// (cli/tests/help_readme_test.py).
#include <parity/cli/command_spec.hpp>

#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/commands.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::cli {
namespace {

// The --max flag of the commands that generate cases (cli/extent_caps.hpp).
std::vector<FlagSpec> with_extent_caps(std::vector<FlagSpec> flags) {
  flags.push_back({"--max", "EXT=N,...",
                   "the largest values of extents by name, any family's (e.g. --max T=4096,D=8192 "
                   "for rms_norm; an unknown extent's refusal lists the family's); an op's cap is "
                   "also the largest value its reach cases draw, and reach_elements and reach_work "
                   "cap a reach case's largest operand and work (at most 2^26 and 2^40); each overrides "
                   "$PARITY_MAX_<EXT>, the extent's name in upper case; a value outside the "
                   "extent's range or an extent no selected family has is refused"});
  return flags;
}

// The flags of every command that writes machine-readable results (cli/result_outputs.hpp).
std::vector<FlagSpec> with_result_outputs(std::vector<FlagSpec> flags) {
  flags.push_back({"--json", "FILE", "write the results as JSON (schema parity.results/1); - for stdout"});
  flags.push_back({"--junit", "FILE", "write the results as JUnit XML, one testcase per result; - for stdout"});
  return flags;
}

// The flags that make a PyTorch operator the subject (cli/torch_op_flags.hpp).
std::vector<FlagSpec> with_torch_op(std::vector<FlagSpec> flags) {
  flags.push_back({"--torch-op", "SCHEMA",
                   "a PyTorch operator by schema name (e.g. mylib::rms_norm), called through "
                   "the dispatcher: check's subject unless --subject names another; replay "
                   "runs the subject each reproducer records (--subject overrides)"});
  flags.push_back({"--library", "FILE", "the shared library to load first, whose TORCH_LIBRARY registers --torch-op"});
  flags.push_back({"--torch-arg", "NAME=VALUE,...",
                   "DECLARED=ARGUMENT: the schema argument a declared input, parameter or extent goes to "
                   "(default: the argument of its name); ARGUMENT=VALUE: what an argument no declared name "
                   "feeds takes: a literal (-1, 0.0, false, None, f32), a list of extents ([D]), or a ragged "
                   "extent's offsets cu_seqlens(EXT) as an int32 tensor (sdpa_varlen: cu_seqlens(S), which "
                   "an operator of a ragged op must take)"});
  flags.push_back({"--torch-device", "cpu|cuda", "the device of --torch-op's tensors (default cpu)"});
  flags.push_back({"--torch-returns", "OUTPUT,...",
                   "the declared output each of --torch-op's returns is, _ to ignore one (default: the declared "
                   "outputs in order, as many as it returns); an output it does not return goes unchecked"});
  flags.push_back({"--kernel-op", "OP",
                   "on model and trajectory, the op --torch-op is a kernel of (default linear): "
                   "linear, rms_norm, rope, swiglu, sdpa, or transition_step (model only)"});
  flags.push_back({"--torch-channel", "FD",
                   "a socket to the process --torch-op lives in, which answers each call (what the Python "
                   "package's parity.check passes; needs --in-process)"});
  return flags;
}

const FlagSpec kReproDir = {"--repro-dir", "DIR",
                            "where reproducers are written (default $PARITY_REPRO_DIR, else reports/repros)"};

}  // namespace

const std::vector<EnvironmentVariable>& environment_variables() {
  static const std::vector<EnvironmentVariable> table = {
      {"PARITY_REPRO_DIR", "the directory reproducers are written to (default reports/repros)"},
      {"PARITY_BACKEND", "gate's backend when --backend is not given: auto (default), host or cuda"},
      {"PARITY_CASES",
       "generated cases per property when --cases is not given (default 100 for the op families, 25 for the other "
       "families; at most 10^8)"},
      {"PARITY_SEED",
       "the seed of the generated cases when --seed is not given (default fixed, so a plain run is "
       "reproducible)"},
      {"RC_PARAMS", "RapidCheck's configuration; its seed= comes before PARITY_SEED"},
      {"PARITY_THREADS", "host threads of the oracles and kernels, 1 to 1024 (default the hardware's)"},
      {"OPENBLAS_CORETYPE",
       "OpenBLAS's kernels for the references' bound products (default parity's own CPU detection where parity "
       "loads OpenBLAS; OpenBLAS's where LibTorch loaded it)"},
      {"OPENBLAS_NUM_THREADS",
       "OpenBLAS's threads for the references' bound products (default PARITY_THREADS where parity loads it)"},
      {"PARITY_TIMEOUT",
       "the deadline of one case in seconds, after which the subject counts as hung, when --timeout is not given "
       "(default 60, at most 86400)"},
      {"PARITY_FIGURES",
       "the gate's reference figures (default the installed or source tree's "
       "docs/reference/figures.json)"},
      {"PARITY_FUZZ_SUBJECT",
       "the subject when --subject is not given (default the family's own kernel); the "
       "fuzz harnesses read it too"},
      {"PARITY_FUZZ_OP",
       "the op the op_fuzzer harness checks (default: each input's first byte picks one of the ops "
       "that have the subject)"},
  };
  return table;
}

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = {
      {.name = "gate",
       .summary = "the reference checks at the reference figures, with a JSON report",
       .description =
           "Runs, at the reference figures (docs/reference.md; read from docs/reference/figures.json or "
           "$PARITY_FIGURES), lora_gate, transition, runtime_modes, model (12, 925 and 4253 tokens under off, strict, "
           "strict "
           "repeat, audit and two ablations, with every boundary's binding) and model_checks; writes a JSON report "
           "and prints a summary, with a progress line per finished row on a terminal. LibTorch's results are "
           "reported as findings and do not change the exit status. Exit 0 if every check of parity's kernels holds.",
       .flags = {{"--backend", "auto|host|cuda",
                  "where parity's kernels run (default $PARITY_BACKEND, else auto: CUDA "
                  "when it can run here)"},
                 {"--out", "FILE", "the JSON report (default reports/gate.json)"},
                 {"--quick", "", "a few rows of each section"},
                 {"--bind-video-projections", "", "also bind the model's proj_in/proj_out routines"}},
       .environment = {"PARITY_BACKEND", "PARITY_THREADS", "PARITY_FIGURES"},
       .run = cmd_gate},
      {.name = "check",
       .summary = "generated cases of a family's properties against one subject",
       .description =
           "Runs every property of FAMILY, or one, on a subject (default parity-host); a failure is shrunk and "
           "written as a reproducer, with the command that reruns the run (--cases and --seed) and the one that "
           "replays it. --subject parity-oracles runs instead the self-checks of parity's own oracles "
           "(oracle_agreement), which call no subject and are never a subject's verdict. --torch-op makes a "
           "PyTorch operator (TORCH_LIBRARY) the subject of an op family by its schema name, its arguments the "
           "declaration's inputs, parameters and extents of the same names (or --torch-arg's), its returns the "
           "declared outputs (or --torch-returns'; an output it does not return goes unchecked); on model and "
           "trajectory, a kernel of the op linear at the model's float32 "
           "projections (the subject runtime-host+linear=SCHEMA, or bound-all+linear=SCHEMA), or of --kernel-op's "
           "op in the routines that run it (runtime-host+OP=SCHEMA). --dtypes and --param restrict an op's generated "
           "cases to what a kernel supports; the rerun line carries them. Each case runs in a supervised worker "
           "process: a subject that crashes, aborts, hangs past --timeout, runs out of memory or loses its CUDA "
           "context fails that case with that kind, shrunk and written as a reproducer like any failure "
           "(--in-process runs it in parity's own process instead). Exit 0 if every property holds.",
       .positionals = {{"FAMILY",
                        "lora, transition, model, trajectory, bridge or an op such as rms_norm (parity list "
                        "families)"}},
       .flags = with_extent_caps(with_torch_op(with_case_worker(
           with_result_outputs({{"--subject", "S", "the subject (parity list subjects)"},
                                {"--property", "P", "one property (default every one)"},
                                {"--cases", "N",
                                 "generated cases per property (default $PARITY_CASES, else the "
                                 "family's)"},
                                {"--seed", "N", "the seed (default RC_PARAMS' seed=, else $PARITY_SEED, else fixed)"},
                                {"--dtypes", "D,...",
                                 "an op's cases in these dtypes only (f32, bf16, f16, f64), for a kernel "
                                 "that supports no others; each dtype group keeps those it declares, and each "
                                 "must be some group's"},
                                {"--param", "NAME=VALUE,...",
                                 "an op's declared parameters fixed to one value each (e.g. bias=1 on linear, "
                                 "layout=0 on sdpa)"},
                                kReproDir})))),
       .environment = {"PARITY_CASES", "PARITY_SEED", "RC_PARAMS", "PARITY_THREADS", "PARITY_REPRO_DIR",
                       "PARITY_TIMEOUT"},
       .run = cmd_check},
      {.name = "probes",
       .summary = "every mismatch probe against its family's properties: each must be detected",
       .description =
           "Runs each probe of FAMILY (default every family) against the family's properties, up to --cases cases "
           "each, counted only on a case parity's own kernel passes; prints a row per probe as it finishes. Exit 0 "
           "iff every probe is detected.",
       .positionals = {{"FAMILY", "one family (default every one)"}},
       .flags = with_extent_caps(with_case_worker(
           with_result_outputs({{"--cases", "N", "cases per property and probe (default 200)"}, kReproDir}))),
       .environment = {"PARITY_SEED", "RC_PARAMS", "PARITY_THREADS", "PARITY_REPRO_DIR", "PARITY_TIMEOUT"},
       .run = cmd_probes},
      {.name = "replay",
       .summary = "re-runs reproducers",
       .description =
           "Re-runs each reproducer (a directory: every *.json in it) on its subject, or on --subject (e.g. a CUDA "
           "reproducer on parity-host). A nondeterministic failure runs 20 times (\"flaky: failed k of 20\"). "
           "A reproducer of a crash, an abort or a hang replays in a supervised worker to the same kind. "
           "Exit 0 if all pass now, 1 if some still fail, 2 for a bad file or a property that does not apply to "
           "the subject.",
       .positionals = {{"FILE", "reproducer files, or directories of them (every *.json in each)", true}},
       .flags = with_torch_op(with_case_worker(
           with_result_outputs({{"--subject", "S", "replay on this subject instead of the recorded one"}}))),
       .environment = {"PARITY_THREADS", "PARITY_TIMEOUT"},
       .run = cmd_replay},
      {.name = "list",
       .summary = "what is registered: families, subjects, properties, probes",
       .description = "Lists every family, subject, property and probe, or one kind of them. --json prints every "
                      "family instead, as one JSON document (schema parity.list/1): its properties, its subjects "
                      "and, for an op, the declaration a subject's arguments and returns map to.",
       .positionals = {{"WHAT", "families, subjects, properties or probes (default all)"}},
       .flags = {{"--json", "", "print every family as JSON (takes no WHAT)"}},
       .run = cmd_list},
      {.name = "bridge",
       .summary = "the float64 tiny-transformer bridge: manual gradients vs LibTorch autograd",
       .description = "Runs the bridge at the reference configuration: manual gradients vs LibTorch autograd (explicit "
                      "attention, and SDPA where LibTorch has one), mismatch probes, refused inputs. Exit 0 if every "
                      "comparison passes, every probe is caught and every bad input refused.",
       .flags = {{"--record", "FILE", "write the JSON record (schema parity.bridge/1)"}},
       .run = cmd_bridge},
      {.name = "fuzz-repro",
       .summary = "a libFuzzer crash file turned into a shrunk reproducer",
       .description =
           "Decodes a crash file of FAMILY's harness (fuzz/README.md), checks the property it selects on the "
           "subject, shrinks the case and writes a reproducer. Exit 0 if a reproducer that still fails was "
           "written, 1 if the input does not fail on the subject, 2 if its property does not apply to it.",
       .positionals = {{"FAMILY",
                        "the harness's family: an op (rms_norm, lora_forward, transition_step, ...: op_fuzzer's)"},
                       {"CRASH_FILE", "the input libFuzzer saved"}},
       .flags = with_case_worker(
           {{"--subject", "S", "the subject (default $PARITY_FUZZ_SUBJECT, else the family's own kernel)"},
            {"--out", "DIR", "where the reproducer is written (default $PARITY_REPRO_DIR, else reports/repros)"},
            {"--max-checks", "N", "checks the shrink may spend (default 3000)"},
            {"--no-shrink", "", "write the decoded case as it is"}}),
       .environment = {"PARITY_FUZZ_SUBJECT", "PARITY_REPRO_DIR", "PARITY_THREADS", "PARITY_TIMEOUT"},
       .run = cmd_fuzz_repro},
      {.name = "trajectory",
       .summary = "single vs batched sampling of the model, and where the layouts diverge",
       .description =
           "Samples the model --steps Euler steps per seed, alone and in one batch, with --straddles latent "
           "elements per sample made to straddle a bf16 rounding boundary, and analyses where the layouts "
           "diverge: velocity gaps per step, flipped bf16 inputs, arms A/B/C/P with per-block growth and a "
           "conclusion. A divergence is shrunk to a reproducer (in $PARITY_REPRO_DIR). Subjects (binding sets): "
           "strict (default), bound-video-projections, bound-all, provider, batch-variant-projection (a probe). "
           "bound-all and batch-variant-projection bind every boundary to parity's routines; the others leave "
           "boundaries on LibTorch, whose batch invariance depends on its BLAS kernel and the CPU (a finding). "
           "Exit 0 if every step is bitwise equal.",
       .flags = {{"--seeds", "N,N,...", "the seeds, one sample each (default 11,22,33)"},
                 {"--steps", "S", "Euler steps (default 4)"},
                 {"--tokens", "N", "tokens per sample (default 32)"},
                 {"--blocks", "N", "transformer blocks (default 2)"},
                 {"--straddles", "K", "latent elements per sample on a bf16 rounding boundary (default 8)"},
                 {"--subject", "S", "the binding set (default strict)"},
                 {"--bind-video-projections", "", "the subject bound-video-projections"},
                 {"--bind-all", "", "the subject bound-all"},
                 {"--mode", "M", "strict (default), audit, auto or off"},
                 {"--json", "FILE", "write the report (schema parity.trajectory/1)"},
                 {"--html", "FILE", "write the report as a self-contained HTML page"},
                 {"--no-shrink", "", "report a divergence without shrinking it"},
                 {"--max-checks", "N", "checks the shrink may spend (default 400)"}},
       .environment = {"PARITY_REPRO_DIR", "PARITY_THREADS"},
       .run = cmd_trajectory},
      {.name = "report",
       .summary = "renders parity's JSON reports as one HTML page",
       .description =
           "Renders parity's JSON reports (gate, check, probes, replay, trajectory, reproducers) as one "
           "self-contained HTML page: the conclusions first, then each file's contents; paths of reproducers are "
           "linked relative to the page. Exit 0 when the page is written, 2 for a bad file or flag.",
       .positionals = {{"FILE", "parity JSON files (at most 4 MiB each)", true}},
       .flags = {{"--out", "PAGE.html", "the page to write (required)"}},
       .run = cmd_report},
      {.name = "export",
       .summary = "a reproducer's input tensors as a .pt file PyTorch loads",
       .description =
           "Writes the input tensors of a reproducer's case (lora, transition, any op) as a dict of tensors that "
           "PyTorch's torch.load reads, e.g. for a bug report's attachment. Exit 0 when written, 2 for a bad "
           "reproducer, a family without tensors or a bad flag.",
       .positionals = {{"REPRO", "a reproducer file (parity.repro/1)"}},
       .flags = {{"--out", "FILE.pt", "the file to write (required)"}},
       .run = cmd_export},
  };
  return specs;
}

}  // namespace parity::cli
