// The op oracles' two evaluations, in one run (bench/README.md, "op_oracle_bench"):
//
//   BM_OpBounded/<op>   the reference in Bounded: every output element with its bound
//   BM_OpFilter/<op>    the reference in Filtered: every element with d and lo, what
//                       forward_accuracy asks before Bounded (filtered.hpp)
//
// at kCases: the ops without matrix products at 2^20 elements in their largest operand (they
// declare no work, and forward_accuracy does not filter them: the filter costs about what Bounded
// does there) and sdpa at 2^23 multiply-adds (its scores a product per block of query rows, past
// kFilterWork: forward_accuracy asks the filter first), under parity-host's arithmetic. Each
// benchmark's counter is "elements/s" over the op's first output; after the runs the filter's time
// over Bounded's (medians where repeated) is printed per op, with the share of elements the filter
// decides for a subject that gives each element v rounded to float32 (|float(v) - v| + 2d <= lo:
// the case passes by the filter where every element is), the least and largest lo / E over the
// case and how many elements have lo > E (a defect of the filter), from this run's own evaluations.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include <parity/core/keep_freed_memory.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/oracles/blas.hpp>

namespace {

using namespace parity;

struct BenchCase {
  std::string op;
  std::map<std::string, std::int64_t> dims;
  std::map<std::string, double> params = {};  // over the drawn case's
  std::string label = op;                     // the benchmarks' and the table's name
};
const std::map<std::string, std::int64_t> kAttention = {{"B", 1}, {"Hkv", 2}, {"G", 1}, {"S", 256}, {"D", 64}};
// 64 rows of the widest width the norms and softmax reach (op_decl reach 16384), SwiGLU's
// [64, 2 x 8192], and attention over 256 positions, two heads of 64, within sdpa's max_work 2^24.
const std::vector<BenchCase> kCases = {
    {"rms_norm", {{"T", 64}, {"D", 16384}}},       {"layer_norm", {{"T", 64}, {"D", 16384}}},
    {"softmax", {{"T", 64}, {"N", 16384}}},        {"swiglu", {{"T", 64}, {"F", 8192}}},
    {"sdpa", kAttention, {{"causal", 0}}, "sdpa"}, {"sdpa", kAttention, {{"causal", 1}}, "sdpa_causal"}};

// A case of `bc.op` drawn from seed 1, then at bc's extents, f32, contiguous, without patches.
ops::OpProblem problem_of(const BenchCase& bc) {
  const ops::OpDef& op = ops::find_op_family(bc.op).def();
  Case c = ops::op_case(op, false)(rc::Random(1), 50).value();
  c.dims = bc.dims;
  c.patches.clear();
  c.probe_row = 0;
  c.params["dtype.act"] = ops::dtype_code(DType::f32);
  for (const auto& [name, value] : bc.params) c.params[name] = value;
  return ops::materialise(op.decl, c);
}

// The arithmetic parity's host twin of `op` declares.
ops::Arithmetic host_arithmetic(const std::string& op) {
  ops::find_op_family(op).subjects();
  for (const auto& s : ops::op_subjects(op))
    if (s.name == "parity-host") return s.make()->arithmetic();
  return {};
}

std::int64_t first_output_elements(const ops::OpDef& op, const ops::OpProblem& p) {
  const auto& shape = p.values.shapes.at(op.decl.outputs.front().name);
  std::int64_t n = 1;
  for (const std::int64_t d : shape) n *= d;
  return n;
}

// One evaluation of bc's reference an iteration: evaluate = &OpDef::bounded (Bounded's) or
// &OpDef::filtered (the filter's).
template <auto evaluate>
void evaluation(benchmark::State& state, const BenchCase& bc) {
  const ops::OpDef& op = ops::find_op_family(bc.op).def();
  const ops::OpProblem p = problem_of(bc);
  const ops::Arithmetic arithmetic = host_arithmetic(bc.op);
  for (auto _ : state) {
    auto out = (op.*evaluate)(p.values, arithmetic);
    benchmark::DoNotOptimize(out);
  }
  state.counters["elements/s"] = benchmark::Counter(
      static_cast<double>(first_output_elements(op, p) * state.iterations()), benchmark::Counter::kIsRate);
}

// The console output, then per op the filter's time over Bounded's and what the filter decides.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;
  // Each benchmark's seconds an iteration: its median where it is repeated, else its one run.
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      if (median || !medians_.contains(run.run_name.function_name))
        seconds_[run.run_name.function_name] = run.real_accumulated_time / static_cast<double>(run.iterations);
      if (median) medians_.insert(run.run_name.function_name);
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::ostream& out = GetOutputStream();
    out << "\nop          filter / Bounded   decided (float(v))   least lo / E   largest lo / E   lo > E\n";
    for (const BenchCase& bc : kCases) {
      const auto b = seconds_.find("BM_OpBounded/" + bc.label), f = seconds_.find("BM_OpFilter/" + bc.label);
      if (b == seconds_.end() || f == seconds_.end()) continue;
      const ops::OpDef& op = ops::find_op_family(bc.op).def();
      const ops::OpProblem p = problem_of(bc);
      const ops::Arithmetic arithmetic = host_arithmetic(bc.op);
      const ops::BoundedOutputs bounded = op.bounded(p.values, arithmetic);
      const ops::FilteredOutputs filtered = op.filtered(p.values, arithmetic);
      std::int64_t n = 0, decided = 0, above = 0;
      double least = INFINITY, largest = 0;
      for (const auto& [name, elements] : filtered)
        for (std::size_t i = 0; i < elements.size(); ++i) {
          const ops::Filtered& x = elements[i];
          ++n;
          const double got = static_cast<float>(x.value());
          decided += std::fabs(got - x.value()) + 2 * x.dev() <= x.lo();
          const double e = bounded.err.at(name)[i];
          above += x.lo() > e;
          if (e > 0 && std::isfinite(e)) {
            least = std::min(least, x.lo() / e);
            largest = std::max(largest, x.lo() / e);
          }
        }
      char line[160];
      std::snprintf(line, sizeof line, "%-11s %16.2f %20.4f %14.4f %16.4f %8lld\n", bc.label.c_str(),
                    f->second / b->second,
                    static_cast<double>(decided) / static_cast<double>(std::max<std::int64_t>(n, 1)), least, largest,
                    static_cast<long long>(above));
      out << line;
    }
  }

 private:
  std::map<std::string, double> seconds_;
  std::set<std::string> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  oracles::load_blas();  // before any thread (oracles/blas.hpp)
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  for (const BenchCase& bc : kCases) {
    benchmark::RegisterBenchmark(("BM_OpBounded/" + bc.label).c_str(), evaluation<&ops::OpDef::bounded>, bc)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_OpFilter/" + bc.label).c_str(), evaluation<&ops::OpDef::filtered>, bc)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
