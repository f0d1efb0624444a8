// Speed of the LoRA family's reference arithmetic beside LibTorch's, in one run
// (bench/README.md). At each reference shape (ops/lora_forward/lora_gate.hpp's gate_shapes):
//
//   BM_TorchMatmulF64/F32/Bf16             LibTorch's CPU mm, [T, K] x [K, N]    2 T N K flops
//   BM_HostTwinForward                     the host twin's forward              2 T (NK + rK + Nr)
//   BM_OpReferenceForward                  lora_forward's reference in Bounded: 2 T (NK + rK + Nr)
//                                          every y with its bound (op_reference.hpp, matmul.hpp)
//   BM_OpFilterForward                     lora_forward's reference in Filtered: 2 T (NK + rK + Nr)
//                                          every y with d and lo (filtered.hpp), what
//                                          forward_accuracy asks before Bounded
//
// and at a small shape (kSmall), BM_Property/<name>: one check of each of the LoRA family's
// properties on the host twin, counter "cases/s", beside BM_TorchMatmulF64 at that shape.
// The host twin and the reference's BLAS run on PARITY_THREADS threads (default: every core),
// printed in the context, with the instruction set they dispatch to and the BLAS's kernels.
// Rates are counters ("FLOP/s", "elements/s"), over wall time; after the runs the ratios of
// these rates are printed, computed from this run's own measurements only.
//
// Extra flag: --torch_threads=N sets LibTorch's intra-op thread count (default: LibTorch's).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <parity/core/isa.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/core/thread_count.hpp>
#include <parity/families/lora/lora_properties.hpp>
#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_forward/lora_gate.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/subjects/torch/matmul_baseline.hpp>

namespace {

using namespace parity;
namespace lora = parity::properties::lora;
namespace gate = parity::ops::lora_forward;  // the gate's shapes and cases
using subjects::torch_impl::MatmulBaseline;

constexpr std::int64_t kRank = 16;        // op_gate_case's r
constexpr double kDefaultMinTimeS = 0.5;  // per benchmark, unless --benchmark_min_time is given

constexpr const char* kTorchF64 = "BM_TorchMatmulF64";
constexpr const char* kTorchF32 = "BM_TorchMatmulF32";
constexpr const char* kTorchBf16 = "BM_TorchMatmulBf16";
constexpr const char* kHostTwin = "BM_HostTwinForward";
constexpr const char* kReference = "BM_OpReferenceForward";
constexpr const char* kFilter = "BM_OpFilterForward";
constexpr const char* kProperty = "BM_Property";
// The small shape of the property throughput: about what the generators draw by default.
const gate::GateShape kSmall{64, 96, 8};

double matmul_flops(const gate::GateShape& s) { return 2.0 * s.T * s.N * s.K; }
double lora_forward_flops(const gate::GateShape& s) { return 2.0 * s.T * (s.N * s.K + kRank * s.K + s.N * kRank); }

// "N512 K384 T70" -> "N512_K384_T70", the shape's part of a benchmark name.
std::string name_key(const gate::GateShape& s) {
  std::string k = s.label();
  std::replace(k.begin(), k.end(), ' ', '_');
  return k;
}

void set_rate(benchmark::State& state, const char* counter, double per_iteration) {
  state.counters[counter] =
      benchmark::Counter(per_iteration * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The gate case of a shape, materialised as lora_forward's. Benchmarks are registered
// shape by shape and Google Benchmark calls a function once per trial, so one slot holds the
// current shape's data: each shape is materialised once and the largest is freed before the
// next is built.
struct ShapeData {
  std::string key;
  ops::OpProblem forward;
};

// `op` (lora_forward, lora_backward) with the gate's room for its shapes (lora_gate.hpp's caps).
const ops::OpDef& gate_op(const std::string& op) {
  static const std::map<std::string, ops::OpDef> defs = {
      {"lora_forward", ops::gate_def("lora_forward", gate::kGateElements, gate::kGateWork)},
      {"lora_backward", ops::gate_def("lora_backward", gate::kGateElements, gate::kGateWork)}};
  return defs.at(op);
}

const ShapeData& shape_data(const gate::GateShape& s) {
  static std::unique_ptr<ShapeData> slot;
  if (!slot || slot->key != name_key(s)) {
    slot.reset();
    auto d = std::make_unique<ShapeData>();
    d->key = name_key(s);
    d->forward = ops::materialise(gate_op("lora_forward").decl, gate::op_gate_case(s, "lora_forward"));
    slot = std::move(d);
  }
  return *slot;
}

// The same one-slot scheme for LibTorch's operands; the first product (thread pool start-up,
// first touch of the pages) runs here, untimed.
MatmulBaseline& baseline(const gate::GateShape& s, DType dtype) {
  static std::unique_ptr<MatmulBaseline> slot;
  static std::string slot_key;
  const std::string key = name_key(s) + "/" + std::string(dtype_name(dtype));
  if (!slot || slot_key != key) {
    slot.reset();
    slot = std::make_unique<MatmulBaseline>(s.T, s.N, s.K, dtype);
    slot_key = key;
    slot->run();
  }
  return *slot;
}

void torch_matmul(benchmark::State& state, gate::GateShape s, DType dtype) {
  MatmulBaseline& mm = baseline(s, dtype);
  for (auto _ : state) mm.run();
  set_rate(state, "FLOP/s", matmul_flops(s));
}

void host_twin_forward(benchmark::State& state, gate::GateShape s) {
  const ShapeData& d = shape_data(s);
  ops::lora_forward::ForwardHost<ops::lora_forward::StandardArithmetic> twin;
  for (auto _ : state) {
    ops::OpOutputs y = twin.run(d.forward.call);
    benchmark::DoNotOptimize(y);
  }
  set_rate(state, "FLOP/s", lora_forward_flops(s));
}

// Every y of lora_forward's reference under the float32 arithmetic that promises nothing of the
// order (Arithmetic{}). evaluate = &OpDef::bounded: with its bound, what forward_accuracy computes
// for a case of the shape; &OpDef::filtered: in Filtered, the filter that forward_accuracy asks
// first (op_checks.hpp, kFilterWork), deciding most cases without Bounded.
template <auto evaluate>
void op_forward(benchmark::State& state, gate::GateShape s) {
  const ShapeData& d = shape_data(s);
  const ops::Arithmetic arithmetic{};
  for (auto _ : state) {
    auto out = (gate_op("lora_forward").*evaluate)(d.forward.values, arithmetic);
    benchmark::DoNotOptimize(out);
  }
  set_rate(state, "FLOP/s", lora_forward_flops(s));
}

// One check of a LoRA family property on the host twin (forward and backward) at `s` (kSmall):
// lora_backward's gate case at that shape, case materialisation and oracles included: what a
// generated case costs.
void property_case(benchmark::State& state, gate::GateShape s, const lora::LoraProperty* property) {
  const Case c = gate::op_gate_case(s, "lora_backward");
  ops::lora_forward::ForwardHost<ops::lora_forward::StandardArithmetic> forward;
  ops::lora_forward::BackwardHost<ops::lora_forward::StandardArithmetic> backward;
  for (auto _ : state) {
    Verdict v = property->check(ops::materialise(gate_op("lora_backward").decl, c), backward, &forward);
    if (!v.holds()) state.SkipWithError((property->name + " did not hold on the case: " + v.detail).c_str());
    benchmark::DoNotOptimize(v);
  }
  set_rate(state, "cases/s", 1.0);
}

// The console output, plus the table of rates and their ratios after the last run. A rate is
// read from each benchmark's own counter; a missing one (filtered out, failed) prints "n/a".
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter(std::vector<gate::GateShape> shapes, OutputOptions options)
      : ConsoleReporter(options), shapes_(std::move(shapes)) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool mean = run.run_type == Run::RT_Aggregate && run.aggregate_name == "mean";
      if (run.run_type != Run::RT_Iteration && !mean) continue;
      const std::string& name = run.run_name.function_name;  // "BM_Kind/N512_K384_T70"
      const auto slash = name.find('/');
      if (slash == std::string::npos) continue;
      for (const char* counter : {"FLOP/s", "elements/s", "cases/s"}) {
        const auto it = run.counters.find(counter);
        if (it == run.counters.end()) continue;
        // A benchmark with two rates files the second under "<kind>:<counter>".
        const std::string kind =
            name.substr(0, slash) +
            (std::strcmp(counter, "elements/s") == 0 && run.counters.count("FLOP/s") ? ":elements" : "");
        rates_[name.substr(slash + 1)][kind] = it->second.value;
      }
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::ostream& out = GetOutputStream();
    out << "\nRates from this run (GFLOP/s, wall time; LibTorch intra-op threads: "
        << subjects::torch_impl::torch_intra_op_threads() << ")\n";
    print_row(out, "shape", {"torch-f64", "torch-f32", "torch-bf16", "host-twin", "reference", "filter"});
    for (const auto& s : shapes_)
      print_row(out, s.label(),
                {gflops(s, kTorchF64), gflops(s, kTorchF32), gflops(s, kTorchBf16), gflops(s, kHostTwin),
                 gflops(s, kReference), gflops(s, kFilter)});
    out << "\nRatios of rates (> 1: the first is faster; host twin target: twin/t-f32 >= 0.5)\n";
    print_row(out, "shape", {"twin/t-f32", "twin/t-f64", "twin/t-bf16", "ref/t-f64"});
    for (const auto& s : shapes_)
      print_row(out, s.label(),
                {ratio(s, kHostTwin, kTorchF32), ratio(s, kHostTwin, kTorchF64), ratio(s, kHostTwin, kTorchBf16),
                 ratio(s, kReference, kTorchF64)});
    out << "\nTime of lora_forward's reference (every y and its bound) and of its filter (every y with d and"
           " lo) over LibTorch's float64 matmul of [T, K] x [K, N] (target: <= 1.5)\n";
    print_row(out, "shape", std::vector<std::string>{"reference", "filter"});
    for (const auto& s : shapes_)
      print_row(
          out, s.label(),
          std::vector<double>{time_over_matmul(s, kReference, kTorchF64), time_over_matmul(s, kFilter, kTorchF64)});
    out << "\nProperty throughput at " << kSmall.label() << " (r=" << kRank
        << "), cases/s, and one case's time in LibTorch float64 matmuls of that shape ("
        << fmt(gflops(kSmall, kTorchF64)) << " GFLOP/s)\n";
    for (const auto& p : lora::lora_properties()) {
      const std::string kind = std::string(kProperty) + "_" + p.name;
      const double cases = rate(kSmall, kind.c_str()), mm = rate(kSmall, kTorchF64) / matmul_flops(kSmall);
      print_row(out, p.name, std::vector<double>{cases, cases > 0 && mm > 0 ? mm / cases : kMissing});
    }
    out.flush();
  }

 private:
  static constexpr double kMissing = -1.0;

  double rate(const gate::GateShape& s, const char* kind) const {
    const auto row = rates_.find(name_key(s));
    if (row == rates_.end()) return kMissing;
    const auto it = row->second.find(kind);
    return it == row->second.end() ? kMissing : it->second;
  }
  double gflops(const gate::GateShape& s, const char* kind) const {
    const double r = rate(s, kind);
    return r < 0 ? kMissing : r * 1e-9;
  }
  double ratio(const gate::GateShape& s, const char* a, const char* b) const {
    const double ra = rate(s, a), rb = rate(s, b);
    return ra < 0 || rb <= 0 ? kMissing : ra / rb;
  }
  // The time of one `forward` iteration (lora_forward's flops) over one `matmul` iteration (the
  // product's): rates count different flops, so their ratio is not the time's.
  double time_over_matmul(const gate::GateShape& s, const char* forward, const char* matmul) const {
    const double rf = rate(s, forward), rm = rate(s, matmul);
    return rf <= 0 || rm < 0 ? kMissing : (lora_forward_flops(s) / rf) / (matmul_flops(s) / rm);
  }
  static std::string fmt(double v) {
    if (v < 0) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, v != 0 && (v < 1e-3 || v >= 1e6) ? "%.3e" : "%.4g", v);
    return buf;
  }
  static void print_row(std::ostream& out, const std::string& head, const std::vector<double>& values) {
    std::vector<std::string> cells;
    for (double v : values) cells.push_back(fmt(v));
    print_row(out, head, cells);
  }
  static void print_row(std::ostream& out, const std::string& head, const std::vector<std::string>& cells) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%-18s", head.c_str());
    out << buf;
    for (const auto& c : cells) {
      std::snprintf(buf, sizeof buf, "%14s", c.c_str());
      out << buf;
    }
    out << "\n";
  }

  std::vector<gate::GateShape> shapes_;
  std::map<std::string, std::map<std::string, double>> rates_;  // shape key -> kind -> rate
};

// The value of the last `prefix`VALUE argument, or nullptr.
const char* flag_value(int argc, char** argv, const char* prefix) {
  const char* value = nullptr;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) value = argv[i] + std::strlen(prefix);
  return value;
}

// A reporter passed to RunSpecifiedBenchmarks does not see --benchmark_color, so it is read
// here: "false", "no" or "0" turn colour off, "true", "yes" or "1" on; otherwise colour when
// stdout is a terminal. Counters are always tabular (one counter per benchmark).
benchmark::ConsoleReporter::OutputOptions console_options(int argc, char** argv) {
  using CR = benchmark::ConsoleReporter;
  const char* v = flag_value(argc, argv, "--benchmark_color=");
  const std::string color = v ? v : "auto";
  const bool on = color == "true" || color == "yes" || color == "1" ||
                  (color != "false" && color != "no" && color != "0" && isatty(STDOUT_FILENO));
  return on ? CR::OO_ColorTabular : CR::OO_Tabular;
}

// Removes --torch_threads=N from argv and applies it; returns false on a malformed value.
bool take_torch_threads(int* argc, char** argv) {
  constexpr const char* kFlag = "--torch_threads=";
  int kept = 1;
  bool ok = true;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp(argv[i], kFlag, std::strlen(kFlag)) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    char* end = nullptr;
    const long n = std::strtol(argv[i] + std::strlen(kFlag), &end, 10);
    if (*end != '\0' || n < 1) {
      std::cerr << "lora_bench: --torch_threads needs a positive integer, got '" << argv[i] << "'\n";
      ok = false;
    } else {
      subjects::torch_impl::set_torch_intra_op_threads(static_cast<int>(n));
    }
  }
  *argc = kept;
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  oracles::load_blas();  // before any thread (oracles/blas.hpp)
  const bool min_time_given = flag_value(argc, argv, "--benchmark_min_time") != nullptr;
  const auto options = console_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (!take_torch_threads(&argc, argv)) return 2;
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  const std::vector<gate::GateShape> shapes = gate::gate_shapes(false);
  auto add = [&](const std::string& kind, const gate::GateShape& s, auto fn, auto... args) {
    auto* b = benchmark::RegisterBenchmark((kind + "/" + name_key(s)).c_str(), fn, s, args...);
    b->UseRealTime()->Unit(benchmark::kMillisecond);
    if (!min_time_given) b->MinTime(kDefaultMinTimeS);
  };
  for (const auto& s : shapes) {
    add(kTorchF64, s, torch_matmul, DType::f64);
    add(kTorchF32, s, torch_matmul, DType::f32);
    add(kTorchBf16, s, torch_matmul, DType::bf16);
    add(kHostTwin, s, host_twin_forward);
    add(kReference, s, op_forward<&ops::OpDef::bounded>);
    add(kFilter, s, op_forward<&ops::OpDef::filtered>);
  }
  add(kTorchF64, kSmall, torch_matmul, DType::f64);
  for (const auto& p : lora::lora_properties()) add(std::string(kProperty) + "_" + p.name, kSmall, property_case, &p);

  benchmark::AddCustomContext("parity_threads", std::to_string(thread_count()));
  benchmark::AddCustomContext("isa", isa_name(best_isa()));
  benchmark::AddCustomContext("blas", oracles::blas_core());
  benchmark::AddCustomContext("torch_intra_op_threads", std::to_string(subjects::torch_impl::torch_intra_op_threads()));
  RatioReporter reporter(shapes, options);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
