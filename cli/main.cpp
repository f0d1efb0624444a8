// parity: differential testing and fuzzing of numerical kernels. See `parity --help`.
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "properties/gen/run_property.hpp"

namespace {

constexpr const char* kUsage = R"(parity 0.1.0 - differential testing of numerical kernels

usage: parity <command> [flags]

commands:
  gate [--backend auto|host|cuda] [--out FILE] [--quick] [--bind-video-projections]
        the reference checks at the reference shapes: lora_gate, transition, runtime_modes,
        model (12, 925 and 4253 tokens under off, strict, strict repeat, audit and two
        ablations, with every boundary's binding) and model_checks; writes a JSON report
        (default reports/gate.json) and prints a summary. LibTorch's results are reported as
        findings and do not change the exit status. --bind-video-projections also binds the
        model's proj_in/proj_out rows. Exit 0 if every check of parity's kernels holds.
  check FAMILY [--subject S] [--property P] [--cases N] [--seed N] [--repro-dir D] [--max-E N]...
        generated cases against one subject (default rlkernels-host), every property or one;
        a failure is shrunk and written as a reproducer, with the command that reruns it
        (--cases, --seed and the caps). Exit 0 if every property holds.
        --max-E N caps the extent E the generator draws (default; limit): lora --max-T
        (8192; 2^20), --max-N (8192; 2^20), --max-K (8192; 2^20), --max-r (256; 2^20),
        --max-work (one forward's multiply-adds, 2^24; 2^33); transition --max-B (64; 8192),
        --max-tokens (2^20; 2^20), --max-channels (96; 4096), --max-elements (B x tokens x
        channels, 2^21; 2^24). A flag overrides PARITY_MAX_E (E in upper case).
        --subject parity-oracles runs instead the self-checks of parity's own oracles
        (oracle_agreement), which call no subject and are never a subject's verdict.
  probes [FAMILY] [--json FILE] [--cases N] [--repro-dir D] [--max-E N]...
        every mismatch probe against its family's properties, up to N cases each (default
        200), counted only on a case parity's own kernel passes; exit 0 iff all are detected.
        --max-E as for check, applied to each family that has the extent E.
  replay [--subject S] FILE|DIR...
        re-runs reproducers (a directory: every *.json in it); --subject replays on another
        subject (e.g. a CUDA reproducer on rlkernels-host). A nondeterministic failure runs 20
        times ("flaky: failed k of 20"). Exit 0 if all pass now, 1 if some still fail.
  bridge [--record FILE]
        the float64 tiny-transformer bridge at the reference configuration: manual gradients
        vs LibTorch autograd (explicit attention, and SDPA where LibTorch has one), mismatch
        probes, refused inputs; --record writes the JSON record. Exit 0 if every comparison
        passes, every probe is caught and every bad input refused.
  fuzz-repro FAMILY CRASH_FILE [--subject S] [--out DIR] [--max-checks N] [--no-shrink]
        decodes a libFuzzer crash file of FAMILY's harness (fuzz/README.md), checks the
        property it selects on S (default $PARITY_FUZZ_SUBJECT, else the family's own kernel),
        shrinks the case and writes a reproducer to DIR (default $PARITY_REPRO_DIR). Exit 0
        if a reproducer that still fails was written, 1 if the input does not fail on S.
  trajectory [--seeds 11,22,33] [--steps S] [--tokens N] [--blocks N] [--straddles K]
             [--bind-video-projections | --bind-all | --subject S] [--mode M] [--json F] [--html F]
             [--no-shrink] [--max-checks N]
        samples the model S Euler steps (default 4) per seed, alone and in one batch, with K
        latent elements per sample made to straddle a bf16 rounding boundary (default 8), and
        analyses where the layouts diverge: velocity gaps per step, flipped bf16 inputs, arms
        A/B/C/P with per-block growth and a conclusion. A divergence is shrunk to a
        reproducer. Subjects (binding sets): strict (default), bound-video-projections,
        bound-all, provider, batch-variant-projection (a probe); --mode strict|audit|auto|off
        (default strict). bound-all and batch-variant-projection bind every boundary to
        parity's rows; the others leave boundaries on LibTorch, whose batch invariance
        depends on its BLAS kernel and the CPU (a finding). Exit 0 if every step is bitwise
        equal.
  list [families|subjects|properties|probes]
        what is registered.

exit status: 0 holds, 1 a check failed, 2 usage or input error (the message names the flag,
file or field).
environment: PARITY_REPRO_DIR (default reports/repros), PARITY_BACKEND (gate's default
backend), PARITY_CASES (cases per property, default 100 for lora, 25 for the
other families), PARITY_MAX_<EXTENT> (the generators' caps, as --max-E), PARITY_SEED,
PARITY_THREADS (host
threads, default the hardware's), RC_PARAMS. Numbers, in flags and variables, are plain
decimal (no sign, space, leading zero or 0x). Output paths are checked before the work; "-"
and other non-regular files (/dev/stdout, a FIFO) are written in place. Input files must be
regular files of at most 4 MiB. A case over its family's work or memory limit (README.md) is
refused.
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "parity 0.1.0\n";
    return 0;
  }
  const std::string command = argv[1];
  const parity::cli::Argv args(argv + 2, argv + argc);
  try {
    parity::gen::check_environment();  // a bad PARITY_* or RC_PARAMS is refused before any work
    if (command == "gate") return parity::cli::cmd_gate(args);
    if (command == "check") return parity::cli::cmd_check(args);
    if (command == "probes") return parity::cli::cmd_probes(args);
    if (command == "replay") return parity::cli::cmd_replay(args);
    if (command == "list") return parity::cli::cmd_list(args);
    if (command == "bridge") return parity::cli::cmd_bridge(args);
    if (command == "fuzz-repro") return parity::cli::cmd_fuzz_repro(args);
    if (command == "trajectory") return parity::cli::cmd_trajectory(args);
    std::cerr << "parity: unknown command '" << parity::escaped(command) << "' (see parity --help)\n";
    return 2;
  } catch (const parity::InputError& e) {
    std::cerr << "parity " << command << ": " << e.what() << "\n";  // escaped by InputError
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "parity " << command << ": " << parity::escaped(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "parity " << command << ": error: " << parity::escaped(e.what()) << "\n";
    return 2;
  }
}
