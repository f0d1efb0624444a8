// Speed of parity's CUDA LoRA kernel beside LibTorch's CUDA build, in one run (bench/README.md),
// at each reference shape (lora_gate.hpp's gate_shapes, r = 16):
//
//   BM_CudaKernelForward     parity-cuda's lora_forward through the op subject API: host operands
//                            in, host bf16 output back (copies to and from the device included)
//   BM_TorchCudaLoraForward  torch-cuda's forward through the same API (PEFT's LoRA linear on
//                            LibTorch's CUDA build, the same copies)
//   BM_TorchCudaMatmulBf16   LibTorch's bf16 mm on the device alone (cuBLAS), [T, K] x [K, N],
//                            operands resident, synchronised after each product
//
// Rates are "FLOP/s" counters over wall time: 2 T (NK + rK + Nr) for the forwards, 2 T N K for
// the mm. ci/device reads this program's JSON output (--benchmark_out) and reports the ratios
// kernel / torch-cuda LoRA and kernel / cuBLAS mm at each shape. Exits 77 (skipped) when this
// process cannot run parity's CUDA kernels or LibTorch's CUDA build.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_forward/lora_gate.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/subjects/torch/matmul_baseline.hpp>

namespace {

using namespace parity;
namespace gate = parity::ops::lora_forward;  // the gate's shapes and cases

constexpr std::int64_t kRank = 16;  // op_gate_case's r

double lora_forward_flops(const gate::GateShape& s) { return 2.0 * s.T * (s.N * s.K + kRank * s.K + s.N * kRank); }

std::string name_key(const gate::GateShape& s) {
  std::string k = s.label();
  std::replace(k.begin(), k.end(), ' ', '_');
  return k;
}

void set_rate(benchmark::State& state, double per_iteration) {
  state.counters["FLOP/s"] =
      benchmark::Counter(per_iteration * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The gate case of `s`, materialised once per shape for every benchmark and every repetition
// of it (Google Benchmark calls a benchmark's function again for each trial of its iterations).
const ops::OpProblem& gate_problem(const gate::GateShape& s) {
  static std::map<std::string, ops::OpProblem> problems;
  const std::string key = name_key(s);
  auto it = problems.find(key);
  if (it == problems.end())
    it = problems
             .emplace(key, ops::materialise(ops::gate_def("lora_forward", gate::kGateElements, gate::kGateWork).decl,
                                            gate::op_gate_case(s, "lora_forward")))
             .first;
  return it->second;
}

// One subject's forward on the gate case of `s`; the first call (context, allocations) untimed.
void subject_forward(benchmark::State& state, const std::string& subject, gate::GateShape s) {
  const ops::OpProblem& problem = gate_problem(s);
  const auto instance = ops::find_op_family("lora_forward").runnable(subject).make();
  benchmark::DoNotOptimize(instance->run(problem.call));
  for (auto _ : state) {
    ops::OpOutputs y = instance->run(problem.call);
    benchmark::DoNotOptimize(y);
  }
  set_rate(state, lora_forward_flops(s));
}

void cublas_mm(benchmark::State& state, gate::GateShape s) {
  subjects::torch_impl::MatmulBaseline mm(s.T, s.N, s.K, DType::bf16, 20261129, /*on_cuda=*/true);
  mm.run();
  for (auto _ : state) mm.run();
  set_rate(state, 2.0 * s.T * s.N * s.K);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  for (const char* subject : {"parity-cuda", "torch-cuda"}) {
    const auto& infos = ops::find_op_family("lora_forward").infos();
    const auto info = std::find_if(infos.begin(), infos.end(), [&](const auto& i) { return i.name == subject; });
    if (const std::string why = info->unavailable_reason(); !why.empty()) {
      std::cerr << "lora_cuda_bench: skipped: " << subject << ": " << why << "\n";
      return 77;
    }
  }
  for (const auto& s : gate::gate_shapes(false)) {
    const auto add = [&s](const std::string& kind, auto fn, auto... args) {
      benchmark::RegisterBenchmark((kind + "/" + name_key(s)).c_str(), fn, args..., s)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    };
    add("BM_CudaKernelForward", subject_forward, std::string("parity-cuda"));
    add("BM_TorchCudaLoraForward", subject_forward, std::string("torch-cuda"));
    add("BM_TorchCudaMatmulBf16", cublas_mm);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
